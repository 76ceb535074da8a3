//! The partner API's handlers, one module per resource, over [`crate::state::AppState`] and the
//! [`crate::auth::Caller`] of the request: [`consents`] (with [`consent_notice`], the text a
//! customer agrees to, and [`consent_claims`], a claimed customer checked against a consent;
//! `body` reads their JSON bodies), [`scores`] (analyse, fetch, erase, with [`analysis`]
//! running the engine and [`scorecards`] choosing the scorecard), [`pdf`] (the shareable PDF),
//! [`usage`], [`health`] (`/livez`, `/readyz`), and [`report_doc`] (the report's schemas for
//! the OpenAPI document). The router above wires them to routes; nothing here names the
//! router, the portal or the CLI.

pub mod analysis;
pub mod application_form;
pub mod applications;
mod body;
pub mod consent_claims;
pub mod consent_notice;
pub mod consents;
pub mod health;
pub mod outcome;
pub mod pdf;
pub mod report_doc;
pub mod scorecards;
pub mod scores;
pub mod submission;
pub mod upload;
pub mod usage;
