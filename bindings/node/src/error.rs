//! The one place where engine errors become JavaScript errors.
//!
//! Every [`alama_core::Error`] is thrown (or rejected) as a plain JS `Error` whose `code` is the
//! engine's stable code ([`alama_core::ErrorKind::code`], e.g. `"wrong_password"`) and whose
//! `message` is the engine's sentence alone ([`alama_core::Error::message`], e.g. `"the password
//! does not open this PDF"`): the code is not repeated in the message.
//! Kinds with data add properties: `malformed_statement` → `page`, `line` (1-based, 0 when not
//! known); `too_large` → `limit` (in the unit the message names).
//!
//! An argument of the wrong JS type (a number where a statement is expected) is a caller bug, not
//! a statement problem: it is an `Error` with napi-rs's code `"InvalidArg"`, like the errors napi
//! raises itself when an options field has the wrong type. A panic in the engine (a bug) becomes
//! an `Error` with napi-rs's code `"GenericFailure"` rather than aborting the process.

use alama_core::{Error, ErrorKind};
use napi::bindgen_prelude::{FromNapiValue, JsObjectValue, Object};
use napi::{Env, JsError, JsValue, Status};

/// The code napi-rs (and this binding) give an argument of the wrong JS type.
pub const INVALID_ARG: Status = Status::InvalidArg;

/// A `code` string usable as the status of a [`napi::Error`].
struct Code(&'static str);

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.0
    }
}

/// Builds the JS error for an engine error: an `Error` with `code` (and `page`/`line` or
/// `limit`), wrapped so napi throws or rejects with exactly that object.
pub fn to_js(env: Env, err: &Error) -> napi::Error {
    build(env, err).unwrap_or_else(|napi_err| napi_err)
}

fn build(env: Env, err: &Error) -> napi::Result<napi::Error> {
    let js = JsError::from(napi::Error::new(Code(err.code()), err.message().to_owned()))
        .into_unknown(env);
    let mut object = Object::from_unknown(js)?;
    match *err.kind() {
        ErrorKind::Malformed { page, line } => {
            object.set_named_property("page", page)?;
            object.set_named_property("line", line)?;
        }
        ErrorKind::TooLarge { limit } => {
            // A JS number holds integers exactly up to 2^53; limits are far below that.
            object.set_named_property("limit", limit as f64)?;
        }
        _ => {}
    }
    Ok(napi::Error::from(object.to_unknown()))
}

/// An argument of the wrong JS type (`code` `"InvalidArg"`).
pub fn invalid_arg(message: impl Into<String>) -> napi::Error {
    napi::Error::new(INVALID_ARG, message.into())
}

/// A JS statement object that cannot be turned into JSON (a function, a symbol, a cycle…) is a
/// malformed statement, reported like a broken canonical JSON file.
pub fn unconvertible_statement(reason: &str) -> Error {
    Error::malformed(
        0,
        0,
        format!("the statement object is not plain JSON data: {reason}"),
    )
}

/// A file that cannot be read (`io_error`), naming the path and the OS reason.
pub fn unreadable_path(path: &str, source: &std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("cannot read {path:?}: {source}"))
}
