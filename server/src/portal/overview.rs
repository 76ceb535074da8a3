//! The overview page: requests, success rate, billable analyses, webhook events and delivery
//! percentage of the session's partner and environment over a chosen period, by day or month,
//! as SVG bar charts with a scale ([`super::charts`]) and a table of the buckets with any
//! activity. The figures come from the same code as `GET /v1/usage`
//! ([`crate::api::usage::period`], the storage counts, [`crate::api::usage::build`]); only the
//! environment differs (the API's usage is Live-only, the portal shows either).

use axum::extract::{Query, State};
use axum::response::Response;
use chrono::{DateTime, NaiveDate};
use serde::Deserialize;

use super::charts::Chart;
use super::session::Session;
use super::views::{Chrome, OverviewPage, UsageRow};
use super::webhooks::percent;
use super::{PortalError, render};
use crate::api::usage::{Figures, UsageQuery, build, period};
use crate::ids::now_ms;
use crate::state::AppState;
use crate::storage::DAY_MS;

/// The period form (empty fields mean the API's defaults: the last 30 days, by day).
#[derive(Debug, Default, Deserialize)]
pub struct PeriodForm {
    /// First day `YYYY-MM-DD`.
    pub from: Option<String>,
    /// Last day `YYYY-MM-DD`.
    pub to: Option<String>,
    /// `day` or `month`.
    pub granularity: Option<String>,
}

fn non_empty(v: Option<String>) -> Option<String> {
    v.filter(|s| !s.trim().is_empty())
}

fn day_number(d: NaiveDate) -> i64 {
    d.signed_duration_since(NaiveDate::default()).num_days()
}

/// A table row of `figures`.
pub fn row(start: String, f: &Figures) -> UsageRow {
    UsageRow {
        start,
        requests: f.requests.total,
        analyses: f.analyses.submitted,
        success: percent(f.analyses.success_rate.map(|r| (r * 1000.0).round() / 10.0)),
        billable: f.billable_units,
        events: f.webhooks.events,
        delivery: percent(
            f.webhooks
                .delivery_rate
                .map(|r| (r * 1000.0).round() / 10.0),
        ),
    }
}

/// `GET /portal/overview?from=&to=&granularity=`.
///
/// # Errors
/// Database errors; a bad period is shown on the page (the default period is used).
pub async fn page(
    State(state): State<AppState>,
    session: Session,
    Query(form): Query<PeriodForm>,
) -> Result<Response, PortalError> {
    let today = DateTime::from_timestamp_millis(now_ms())
        .unwrap_or_default()
        .date_naive();
    let query = UsageQuery {
        from: non_empty(form.from),
        to: non_empty(form.to),
        granularity: non_empty(form.granularity),
    };
    let (checked, error) = match period(&query, today) {
        Ok(p) => (p, None),
        Err(e) => (
            period(&UsageQuery::default(), today)
                .map_err(|e| PortalError::Internal(e.to_string()))?,
            Some(e.detail().to_owned()),
        ),
    };
    let (from, to, granularity) = checked;
    let owner = session.owner();
    let (from_ms, to_ms) = (day_number(from) * DAY_MS, (day_number(to) + 1) * DAY_MS);
    let storage = &state.storage;
    let requests = storage.request_counts(&owner, from_ms, to_ms).await?;
    let analyses = storage.analysis_counts(&owner, from_ms, to_ms).await?;
    let webhooks = storage.webhook_counts(&owner, from_ms, to_ms).await?;
    let usage = build(from, to, granularity, &requests, &analyses, &webhooks);
    let rows: Vec<UsageRow> = usage
        .buckets
        .iter()
        .map(|b| row(b.start.clone(), &b.figures))
        .collect();
    let series = |f: fn(&UsageRow) -> i64| -> Vec<(String, i64)> {
        rows.iter().map(|r| (r.start.clone(), f(r))).collect()
    };
    let charts = vec![
        Chart::new("Requests", &series(|r| r.requests)),
        Chart::new("Billable analyses", &series(|r| r.billable)),
    ];
    // The table lists the buckets with activity; the charts show every bucket.
    let all = rows.len();
    let rows: Vec<UsageRow> = rows
        .into_iter()
        .filter(|r| r.requests != 0 || r.analyses != 0 || r.billable != 0 || r.events != 0)
        .collect();
    let quiet = all - rows.len();
    Ok(render(&OverviewPage {
        c: Chrome::signed("Overview", &session, "overview"),
        from: from.to_string(),
        to: to.to_string(),
        month: granularity == "month",
        totals: row("Total".to_owned(), &usage.totals),
        rows,
        charts,
        quiet,
        error,
    }))
}
