//! Reading a statement's bytes within the size limit ([`Limits::max_bytes`]): from a file
//! ([`read_file`], sized from its length up front) or any reader ([`read_bounded`]: the
//! service's uploads, standard input), refusing a larger input without reading it all.

use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limits;

/// Reads a statement file, refusing one larger than `limits.max_bytes` without reading it all.
///
/// # Errors
/// - `ErrorKind::Io` when the file cannot be opened or read (the message names the path).
/// - `ErrorKind::TooLarge` when it is larger than `limits.max_bytes`.
pub fn read_file(path: &std::path::Path, limits: &Limits) -> Result<Vec<u8>> {
    let io = |e: std::io::Error| {
        Error::new(
            ErrorKind::Io,
            format!("cannot read {}: {e}", path.display()),
        )
    };
    let file = std::fs::File::open(path).map_err(io)?;
    // Sized from the file's length up front: growing a multi-megabyte buffer step by step
    // touches fresh memory at every step.
    let size = file.metadata().map_or(0, |m| m.len()).min(limits.max_bytes);
    let capacity = usize::try_from(size).unwrap_or(0).saturating_add(1);
    read_bounded_into(
        file,
        limits.max_bytes,
        &path.display().to_string(),
        Vec::with_capacity(capacity),
    )
    .map_err(|e| match e {
        ReadError::Io(e) => io(e),
        ReadError::TooLarge(e) => e,
    })
}

/// Why [`read_bounded`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// The reader failed.
    Io(std::io::Error),
    /// More than the limit.
    TooLarge(Error),
}

/// Reads at most `max_bytes` from `reader` (one byte more tells that the input is too large).
///
/// # Errors
/// [`ReadError::Io`] when reading fails; [`ReadError::TooLarge`] past `max_bytes`, naming `what`.
pub fn read_bounded(
    reader: impl std::io::Read,
    max_bytes: u64,
    what: &str,
) -> std::result::Result<Vec<u8>, ReadError> {
    read_bounded_into(reader, max_bytes, what, Vec::new())
}

/// [`read_bounded`] into `bytes` (already allocated to the expected size).
fn read_bounded_into(
    reader: impl std::io::Read,
    max_bytes: u64,
    what: &str,
    mut bytes: Vec<u8>,
) -> std::result::Result<Vec<u8>, ReadError> {
    use std::io::Read;
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(ReadError::TooLarge(Error::new(
            ErrorKind::TooLarge { limit: max_bytes },
            format!("{what} is larger than the {max_bytes}-byte limit"),
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_read_refuses_past_the_limit() {
        let err = read_bounded(&b"12345"[..], 4, "input").unwrap_err();
        assert!(
            matches!(err, ReadError::TooLarge(e) if e.kind() == &ErrorKind::TooLarge { limit: 4 })
        );
        assert_eq!(read_bounded(&b"1234"[..], 4, "input").unwrap(), b"1234");
        let missing = read_file(
            std::path::Path::new("/no/such/statement.pdf"),
            &Limits::default(),
        );
        assert_eq!(missing.unwrap_err().code(), "io_error");
    }
}
