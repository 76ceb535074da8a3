//! The portal's pages as askama templates (`server/templates/portal/*.html`, checked at compile
//! time, HTML-escaped) and the plain, pre-formatted data they show. Templates hold no logic
//! beyond loops and conditions.
//! (Over 400 lines: one template type per portal page, with the rows it lists, each a few
//! documented fields.)

use askama::Template;
use chrono::{DateTime, TimeZone};

use super::assets;
use super::charts::Chart;
use super::report_page::Completed;
use super::session::Session;

/// `2026-11-23 06:30 UTC` for milliseconds since the epoch: the portal's times are UTC, labelled,
/// in ISO order, unless a page says otherwise ([`when_in`]).
pub fn when(ms: i64) -> String {
    DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_default()
}

/// `2026-11-23 09:30 EAT` for milliseconds since the epoch in the IANA zone `zone` (a
/// statement's wallet's, `Provider::time_zone`), labelled with the zone's abbreviation; [`when`]
/// (UTC) without a zone or for a name the tz database does not know.
pub fn when_in(ms: i64, zone: Option<&str>) -> String {
    let tz = zone.and_then(|z| z.parse::<chrono_tz::Tz>().ok());
    match (DateTime::from_timestamp_millis(ms), tz) {
        (Some(t), Some(tz)) => tz
            .from_utc_datetime(&t.naive_utc())
            .format("%Y-%m-%d %H:%M %Z")
            .to_string(),
        _ => when(ms),
    }
}

/// The abbreviation of the IANA zone `zone` now (`"EAT"`, `"GMT"`, `"SAST"`); the name itself
/// for one the tz database does not know. The wallets' zones have no daylight saving.
pub fn zone_abbreviation(zone: &str) -> String {
    zone.parse::<chrono_tz::Tz>().map_or_else(
        |_| zone.to_owned(),
        |tz| {
            tz.from_utc_datetime(&DateTime::UNIX_EPOCH.naive_utc())
                .format("%Z")
                .to_string()
        },
    )
}

/// What the layout shows around every page.
#[derive(Debug, Clone)]
pub struct Chrome {
    /// Page title.
    pub title: String,
    /// URL of htmx.
    pub htmx: String,
    /// URL of the stylesheet.
    pub css: String,
    /// URL of the portal script.
    pub js: String,
    /// The signed-in user, if any.
    pub user: Option<SignedIn>,
}

/// The signed-in user, as the layout shows them.
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// Email.
    pub email: String,
    /// Partner name.
    pub partner: String,
    /// Whether the session looks at Live (else Sandbox).
    pub live: bool,
    /// The session's CSRF token (sign-out and environment forms).
    pub csrf: String,
    /// Which navigation entry is current: `overview`, `keys`, `webhooks`, `reports`, `consents`, `account`.
    pub page: &'static str,
}

impl Chrome {
    /// The layout of a page shown before sign-in.
    pub fn anonymous(title: &str) -> Self {
        Self {
            title: title.to_owned(),
            htmx: assets::url(0),
            css: assets::url(1),
            js: assets::url(2),
            user: None,
        }
    }

    /// The layout of a signed-in page.
    pub fn signed(title: &str, session: &Session, page: &'static str) -> Self {
        let mut c = Self::anonymous(title);
        c.user = Some(SignedIn {
            email: session.record.user.email.clone(),
            partner: session.record.user.partner_name.clone(),
            live: session.record.environment == crate::keys::Environment::Live,
            csrf: session.record.csrf.clone(),
            page,
        });
        c
    }
}

/// An error page.
#[derive(Debug, Template)]
#[template(path = "portal/error.html")]
pub struct ErrorPage {
    /// Layout.
    pub c: Chrome,
    /// HTTP status.
    pub status: u16,
    /// What went wrong, for the user.
    pub message: String,
}

/// The sign-in page.
#[derive(Debug, Template)]
#[template(path = "portal/signin.html")]
pub struct SigninPage {
    /// Layout.
    pub c: Chrome,
    /// Double-submit CSRF token.
    pub csrf: String,
    /// The email typed, shown again after a failure.
    pub email: String,
    /// Why the last attempt failed.
    pub error: Option<String>,
}

/// The set-password page of a one-time link.
#[derive(Debug, Template)]
#[template(path = "portal/activate.html")]
pub struct ActivatePage {
    /// Layout.
    pub c: Chrome,
    /// Double-submit CSRF token.
    pub csrf: String,
    /// The user's email.
    pub email: String,
    /// The link's token (the form posts back to the same link).
    pub token: String,
    /// Why the last attempt failed.
    pub error: Option<String>,
}

/// The account page (password change).
#[derive(Debug, Template)]
#[template(path = "portal/account.html")]
pub struct AccountPage {
    /// Layout.
    pub c: Chrome,
    /// Why the last attempt failed.
    pub error: Option<String>,
    /// What was done.
    pub notice: Option<String>,
}

/// A confirmation page with one `POST` button (revoke, remove): works without JavaScript.
#[derive(Debug, Template)]
#[template(path = "portal/confirm.html")]
pub struct ConfirmPage {
    /// Layout.
    pub c: Chrome,
    /// The question.
    pub heading: String,
    /// What will happen.
    pub message: String,
    /// Where the form posts.
    pub action: String,
    /// The button's label.
    pub button: String,
    /// Where "Cancel" goes.
    pub back: String,
}

/// One key row.
#[derive(Debug, Clone)]
pub struct KeyView {
    /// `key_…`.
    pub id: String,
    /// Prefix and first characters.
    pub hint: String,
    /// `sandbox` or `live`.
    pub environment: &'static str,
    /// When created.
    pub created: String,
    /// When last used, or `never`.
    pub last_used: String,
    /// Whether it still works.
    pub active: bool,
    /// `active` or `revoked <when>`.
    pub status: String,
}

/// The API keys page.
#[derive(Debug, Template)]
#[template(path = "portal/keys.html")]
pub struct KeysPage {
    /// Layout.
    pub c: Chrome,
    /// The keys of the partner in this environment.
    pub keys: Vec<KeyView>,
    /// A key just created: shown this once.
    pub created: Option<String>,
}

/// One endpoint row.
#[derive(Debug, Clone)]
pub struct EndpointView {
    /// `whe_…`.
    pub id: String,
    /// URL.
    pub url: String,
    /// When added.
    pub created: String,
    /// Events in all.
    pub events: i64,
    /// Delivered.
    pub delivered: i64,
    /// Failed.
    pub failed: i64,
    /// Pending.
    pub pending: i64,
    /// `97.5%` or `–`.
    pub delivery: String,
}

/// The webhooks page.
#[derive(Debug, Template)]
#[template(path = "portal/webhooks.html")]
pub struct WebhooksPage {
    /// Layout.
    pub c: Chrome,
    /// Active endpoints.
    pub endpoints: Vec<EndpointView>,
    /// A new endpoint's id and secret: shown this once.
    pub created: Option<(String, String)>,
    /// Why adding failed.
    pub error: Option<String>,
    /// The URL typed (after an error).
    pub url: String,
}

/// One delivery-log row.
#[derive(Debug, Clone)]
pub struct EventView {
    /// `msg_…`.
    pub id: String,
    /// `pending`, `delivered`, `failed`.
    pub status: String,
    /// Attempts so far.
    pub attempts: i64,
    /// Last HTTP status or `–`.
    pub last_status: String,
    /// Next retry (pending) or `–`.
    pub next_retry: String,
    /// When made.
    pub created: String,
}

/// One endpoint's page: delivery log, rotate, remove.
#[derive(Debug, Template)]
#[template(path = "portal/endpoint.html")]
pub struct EndpointPage {
    /// Layout.
    pub c: Chrome,
    /// The endpoint.
    pub endpoint: EndpointView,
    /// Its latest events.
    pub events: Vec<EventView>,
    /// A new secret just made by rotation: shown this once.
    pub secret: Option<String>,
}

/// One row of the usage table.
#[derive(Debug, Clone)]
pub struct UsageRow {
    /// First day of the bucket, or `Total`.
    pub start: String,
    /// Requests.
    pub requests: i64,
    /// Analyses submitted.
    pub analyses: i64,
    /// `completed / (completed + failed)` as a percentage, or `–`.
    pub success: String,
    /// Billable analyses.
    pub billable: i64,
    /// Webhook events.
    pub events: i64,
    /// Delivery percentage, or `–`.
    pub delivery: String,
}

/// The overview (usage) page.
#[derive(Debug, Template)]
#[template(path = "portal/overview.html")]
pub struct OverviewPage {
    /// Layout.
    pub c: Chrome,
    /// First day (`YYYY-MM-DD`).
    pub from: String,
    /// Last day.
    pub to: String,
    /// `day` or `month`.
    pub month: bool,
    /// The whole period.
    pub totals: UsageRow,
    /// Each bucket.
    pub rows: Vec<UsageRow>,
    /// Requests per bucket, then billable analyses per bucket.
    pub charts: Vec<Chart>,
    /// Buckets left out of the table because every figure in them is zero.
    pub quiet: usize,
    /// Why the period was refused, if it was.
    pub error: Option<String>,
}

/// One row of the reports list.
#[derive(Debug, Clone)]
pub struct ReportView {
    /// `rpt_…` or `app_…`.
    pub id: String,
    /// Its page: `/portal/reports/{id}` or `/portal/applications/{id}`.
    pub href: String,
    /// Whether it is an application (several statements).
    pub application: bool,
    /// Whether a statement of it was seen before (`statement_seen_before`).
    pub seen_before: bool,
    /// Status.
    pub status: String,
    /// Score or `–`.
    pub score: String,
    /// Band or `–`.
    pub band: String,
    /// Customer reference or `–`.
    pub customer: String,
    /// When submitted.
    pub created: String,
}

/// The reports list.
#[derive(Debug, Template)]
#[template(path = "portal/reports.html")]
pub struct ReportsPage {
    /// Layout.
    pub c: Chrome,
    /// The search typed.
    pub q: String,
    /// Matching reports.
    pub reports: Vec<ReportView>,
}

/// One report: what the PDF's first page shows, for a completed report ([`Completed`]).
#[derive(Debug, Template)]
#[template(path = "portal/report.html")]
pub struct ReportPage {
    /// Layout.
    pub c: Chrome,
    /// `rpt_…`.
    pub id: String,
    /// `processing`, `completed` or `failed`.
    pub status: String,
    /// Whether it is a Sandbox report (test data).
    pub sandbox: bool,
    /// A note at the top (Try it switched the session to Sandbox to show its report).
    pub notice: Option<String>,
    /// The customer reference of its consent, or a dash.
    pub customer: String,
    /// Its consent, when it has one.
    pub consent: Option<String>,
    /// When it was created, in the statement's zone (UTC before it is read), labelled.
    pub created: String,
    /// The content of a completed report.
    pub report: Option<Completed>,
    /// Error of a failed report.
    pub error: Option<String>,
    /// Whether the PDF link is offered (Live, completed).
    pub pdf: bool,
    /// An application's own sections (the statements read, the affordability); `None` for a
    /// statement's report.
    pub application: Option<super::application_page::ApplicationView>,
}

/// One consent row.
#[derive(Debug, Clone)]
pub struct ConsentView {
    /// `cns_…`.
    pub id: String,
    /// The partner's customer reference.
    pub customer: String,
    /// `pending`, `granted`, `revoked` or `expired`.
    pub status: String,
    /// Notice version.
    pub notice_version: String,
    /// The notice's SHA-256 in full (what the customer agreed to; copied by its button).
    pub notice_sha256: String,
    /// Its first 12 hex digits, shown.
    pub notice_short: String,
    /// When made.
    pub created: String,
    /// When granted and how, or `–`.
    pub granted: String,
    /// When revoked and why, or `–`.
    pub revoked: String,
    /// When it expires.
    pub expires: String,
}

/// The consents page.
#[derive(Debug, Template)]
#[template(path = "portal/consents.html")]
pub struct ConsentsPage {
    /// Layout.
    pub c: Chrome,
    /// The latest consents.
    pub consents: Vec<ConsentView>,
}

/// The "Try it" page: analyses run with a Sandbox key, in either environment's view.
#[derive(Debug, Template)]
#[template(path = "portal/try.html")]
pub struct TryPage {
    /// Layout.
    pub c: Chrome,
    /// Why the last upload was refused.
    pub error: Option<String>,
    /// The key typed, given back after a refusal (a Sandbox key of the user's own partner,
    /// on a page served `no-store`), so it need not be pasted again.
    pub key: String,
    /// Whether the session looks at Live (the report opens in Sandbox, which the page says).
    pub live: bool,
    /// The wallets and the files of each the engine reads, in words (the engine's
    /// `parse::wallet::SUPPORTED`).
    pub supported: String,
}

/// A Try it refusal shown in place by htmx (the form, its key and its chosen file stay).
#[derive(Debug, Template)]
#[template(path = "portal/try_error.html")]
pub struct TryError {
    /// Why the upload was refused.
    pub error: String,
}
