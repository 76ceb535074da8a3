//! The form of `POST /v1/applications` ([`crate::api::applications`]): its parts read with
//! their limits (at most [`MAX_STATEMENTS`] statements, together within the upload limit), the
//! loan terms checked by the engine, and the request fingerprint of an `Idempotency-Key`.

use std::str::FromStr;

use axum::extract::Multipart;
use hmac::{Hmac, KeyInit, Mac};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};

use super::upload::{multipart_error, read_capped, read_text};
use crate::error::ApiError;
use crate::limits::{MAX_ID_BYTES, MAX_PASSWORD_BYTES};

/// Most statements in one application (two SIMs, or a year of one line in consecutive
/// exports, fit).
pub const MAX_STATEMENTS: usize = 5;

/// The form's loan-term fields as sent.
#[derive(Debug, Default)]
pub(crate) struct TermFields {
    principal: Option<String>,
    tenor_months: Option<String>,
    monthly_rate: Option<String>,
    total_cost: Option<String>,
    fees: Option<String>,
}

impl TermFields {
    fn slot(&mut self, name: &str) -> Option<&mut Option<String>> {
        match name {
            "principal" => Some(&mut self.principal),
            "tenorMonths" => Some(&mut self.tenor_months),
            "monthlyRate" => Some(&mut self.monthly_rate),
            "totalCost" => Some(&mut self.total_cost),
            "fees" => Some(&mut self.fees),
            _ => None,
        }
    }

    /// The terms (`None` without principal and tenor), checked by the engine.
    pub(crate) fn terms(&self) -> Result<Option<alama_core::Terms>, ApiError> {
        let decimal = |name: &str, v: &Option<String>| {
            v.as_deref()
                .map(|t| {
                    Decimal::from_str(t).map_err(|_| {
                        ApiError::invalid(format!("`{name}` must be a decimal number, got {t:?}"))
                    })
                })
                .transpose()
        };
        let tenor = self
            .tenor_months
            .as_deref()
            .map(|t| {
                t.parse::<u32>().map_err(|_| {
                    ApiError::invalid(format!("`tenorMonths` must be a whole number, got {t:?}"))
                })
            })
            .transpose()?;
        alama_core::Terms::from_options(
            decimal("principal", &self.principal)?,
            tenor,
            decimal("monthlyRate", &self.monthly_rate)?,
            decimal("totalCost", &self.total_cost)?,
            decimal("fees", &self.fees)?,
        )
        .map_err(|e| ApiError::invalid(e.message().to_owned()))
    }
}

pub(crate) struct Form {
    pub(crate) statements: Vec<Vec<u8>>,
    pub(crate) passwords: Vec<Option<String>>,
    pub(crate) consent_id: Option<String>,
    pub(crate) scorecard: Option<String>,
    pub(crate) terms: TermFields,
}

pub(crate) async fn read_form(
    mut multipart: Multipart,
    max_total: usize,
) -> Result<Form, ApiError> {
    let mut form = Form {
        statements: Vec::new(),
        passwords: Vec::new(),
        consent_id: None,
        scorecard: None,
        terms: TermFields::default(),
    };
    let mut total = 0usize;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(&e))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        match name.as_str() {
            "statement" => {
                if form.statements.len() == MAX_STATEMENTS {
                    return Err(ApiError::new(
                        "too_many_statements",
                        format!("an application takes at most {MAX_STATEMENTS} statements"),
                    )
                    .with("limit", MAX_STATEMENTS));
                }
                let left = max_total - total;
                let bytes = read_capped(&mut field, left, "too_large", 0)
                    .await
                    .map_err(|e| {
                        if e.code() == "too_large" {
                            ApiError::new(
                                "too_large",
                                format!(
                                    "the application's statements together are larger than \
                                     {max_total} bytes"
                                ),
                            )
                            .with("limit", max_total)
                        } else {
                            e
                        }
                    })?;
                total += bytes.len();
                form.statements.push(bytes);
            }
            "password" => {
                if form.passwords.len() == MAX_STATEMENTS {
                    return Err(ApiError::invalid("more `password` parts than statements"));
                }
                form.passwords
                    .push(read_text(&mut field, MAX_PASSWORD_BYTES).await?);
            }
            "consentId" | "scorecard" => {
                let slot = if name == "consentId" {
                    &mut form.consent_id
                } else {
                    &mut form.scorecard
                };
                if slot.is_some() {
                    return Err(ApiError::invalid(format!(
                        "the form field `{name}` is repeated"
                    )));
                }
                *slot = read_text(&mut field, MAX_ID_BYTES).await?;
            }
            other => {
                let value = read_text(&mut field, MAX_ID_BYTES).await?;
                let Some(slot) = form.terms.slot(other) else {
                    return Err(ApiError::invalid(format!(
                        "unknown form field `{name}`: expected `statement` (files), `password`, \
                         `consentId`, `scorecard`, `principal`, `tenorMonths`, `monthlyRate`, \
                         `totalCost`, `fees`"
                    )));
                };
                if slot.is_some() {
                    return Err(ApiError::invalid(format!(
                        "the form field `{name}` is repeated"
                    )));
                }
                *slot = value;
            }
        }
    }
    if form.statements.is_empty() {
        return Err(ApiError::invalid(
            "the form has no `statement` file part: an application needs 1 to 5 statements",
        ));
    }
    if form.passwords.len() > form.statements.len() {
        return Err(ApiError::invalid(format!(
            "{} `password` parts for {} statements: the i-th password opens the i-th statement",
            form.passwords.len(),
            form.statements.len()
        )));
    }
    Ok(form)
}

/// `app1:` + hex HMAC-SHA256, under the server's fingerprint key, of every statement's SHA-256
/// (sorted: the same statements in another order are the same request), the consent id, the
/// scorecard field and the terms as given. Never a password (see
/// `crate::api::scores::request_fingerprint`).
pub(crate) fn fingerprint(key: &[u8], form: &Form) -> Result<String, ApiError> {
    let mut digests: Vec<_> = form.statements.iter().map(Sha256::digest).collect();
    digests.sort_unstable();
    let mut mac = Hmac::<Sha256>::new_from_slice(key).map_err(|e| ApiError::internal(&e))?;
    mac.update(b"alama application fingerprint v1\0");
    for d in &digests {
        mac.update(d);
    }
    let t = &form.terms;
    for part in [
        &form.consent_id,
        &form.scorecard,
        &t.principal,
        &t.tenor_months,
        &t.monthly_rate,
        &t.total_cost,
        &t.fees,
    ] {
        mac.update(b"\0");
        mac.update(part.as_deref().map_or(b"-".as_slice(), str::as_bytes));
    }
    Ok(format!(
        "app1:{}",
        crate::ids::hex(&mac.finalize().into_bytes())
    ))
}
