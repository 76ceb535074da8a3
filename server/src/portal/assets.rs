//! The portal's static files, compiled into the binary and served under content-hashed names
//! (`/portal/assets/htmx-<hash>.js`), so browsers may cache them for a year and a new build
//! never serves a stale file. No CDN: production networks have no internet either.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use super::PortalError;

/// htmx 2.0.11 (npm `htmx.org`, 0BSD licence), `dist/htmx.min.js` unchanged.
const HTMX: &[u8] = include_bytes!("../../assets/portal/htmx.min.js");
/// The portal's stylesheet.
const CSS: &[u8] = include_bytes!("../../assets/portal/portal.css");
/// The portal's own script (copy buttons); no inline script anywhere.
const JS: &[u8] = include_bytes!("../../assets/portal/portal.js");

/// One served file.
#[derive(Debug)]
pub struct Asset {
    /// Its hashed name, e.g. `htmx-0123456789.js`.
    pub name: String,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// The bytes.
    pub bytes: &'static [u8],
}

fn hashed(stem: &str, ext: &str, content_type: &'static str, bytes: &'static [u8]) -> Asset {
    let digest = crate::ids::hex(&Sha256::digest(bytes));
    Asset {
        name: format!("{stem}-{}.{ext}", &digest[..12]),
        content_type,
        bytes,
    }
}

/// Every asset: htmx, the stylesheet, the script.
pub fn all() -> &'static [Asset; 3] {
    static ASSETS: OnceLock<[Asset; 3]> = OnceLock::new();
    ASSETS.get_or_init(|| {
        [
            hashed("htmx", "js", "text/javascript; charset=utf-8", HTMX),
            hashed("portal", "css", "text/css; charset=utf-8", CSS),
            hashed("portal", "js", "text/javascript; charset=utf-8", JS),
        ]
    })
}

/// The URL of asset number `i` of [`all`] (0 htmx, 1 CSS, 2 script).
pub fn url(i: usize) -> String {
    all()
        .get(i)
        .map(|a| format!("/portal/assets/{}", a.name))
        .unwrap_or_default()
}

/// `GET /portal/assets/{name}`.
///
/// # Errors
/// [`PortalError::NotFound`] for an unknown name (an old hash included).
pub async fn get(Path(name): Path<String>) -> Result<Response, PortalError> {
    let asset = all()
        .iter()
        .find(|a| a.name == name)
        .ok_or(PortalError::NotFound)?;
    let mut response = asset.bytes.into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    Ok(response)
}
