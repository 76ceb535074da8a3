//! `GET /v1/usage` (Live only): request volume, success rates and billing usage of the calling
//! partner in Live, over a period, by day or by month.
//!
//! Everything is counted from durable rows, never from in-memory counters, so the figures
//! survive restarts and are the same on every replica: requests from `api_requests` (one row
//! per authenticated request, recorded after its response; a usage request is therefore not in
//! its own answer), analyses and applications from `reports` (by the UTC day they were submitted; an idempotent
//! replay makes no report, so it is neither counted as an analysis nor billed), and webhook
//! events from the webhook outbox (by the day the event was made). Days are UTC days.
//! (Over 400 lines: one endpoint, and its answer's documented types, its period rules and its
//! day or month sums are read together.)

use std::collections::BTreeMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Datelike, Days, NaiveDate};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::problem::Problem;
use crate::state::AppState;
use crate::storage::{AnalysisCount, DAY_MS, RequestCount, WebhookCount};

/// Longest period by day, in days.
pub const MAX_DAYS: u64 = 366;
/// Longest period by month, in days (about ten years).
pub const MAX_MONTH_DAYS: u64 = 3_660;

/// Query of `GET /v1/usage`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UsageQuery {
    /// First day, `YYYY-MM-DD` (UTC), inclusive; default 29 days before `to`.
    pub from: Option<String>,
    /// Last day, `YYYY-MM-DD` (UTC), inclusive; default today.
    pub to: Option<String>,
    /// `day` (default; at most 366 days) or `month` (at most 3,660 days).
    pub granularity: Option<String>,
}

/// The period covered.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Period {
    /// First day, inclusive.
    pub from: String,
    /// Last day, inclusive.
    pub to: String,
    /// Always `UTC`: days start at 00:00 UTC.
    pub time_zone: &'static str,
}

/// Requests made with the partner's Live keys.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Requests {
    /// All requests.
    pub total: i64,
    /// By `METHOD route-template`, e.g. `"POST /v1/scores/analyse"`.
    pub by_endpoint: BTreeMap<String, i64>,
    /// By status class: `2xx`, `4xx`, `5xx` always present (others when they occur).
    pub by_status_class: BTreeMap<String, i64>,
}

/// Analyses submitted (reports made), by outcome.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Analyses {
    /// Reports made (idempotent replays excluded).
    pub submitted: i64,
    /// Of which `completed`.
    pub completed: i64,
    /// Of which `failed` (unreadable statements, wrong passwords, time-outs, …).
    pub failed: i64,
    /// Of which still `processing`.
    pub processing: i64,
    /// `completed / (completed + failed)`, 0–1 rounded to 4 decimals; null when neither.
    pub success_rate: Option<f64>,
}

/// `score.completed` and `application.completed` webhook events of the period.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Webhooks {
    /// Events (one per completed report and registered endpoint).
    pub events: i64,
    /// Delivered (the endpoint answered `200`).
    pub delivered: i64,
    /// Given up after the last retry.
    pub failed: i64,
    /// Still being tried.
    pub pending: i64,
    /// `delivered / (delivered + failed)`, 0–1 rounded to 4 decimals; null when neither.
    pub delivery_rate: Option<f64>,
}

/// The figures of a bucket or of the whole period.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    /// Request volume.
    pub requests: Requests,
    /// Analyses and their success rate.
    pub analyses: Analyses,
    /// Applications (`POST /v1/applications`, several statements scored as one) and their
    /// success rate, counted as analyses are.
    pub applications: Analyses,
    /// Billable units: completed analyses plus completed applications, one unit each whatever
    /// its number of statements (replays and failures are not billed).
    pub billable_units: i64,
    /// Webhook events and their delivery rate.
    pub webhooks: Webhooks,
}

/// One day or month.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Bucket {
    /// First day of the bucket (`YYYY-MM-DD`; a month bucket starts on the 1st, or on `from`).
    pub start: String,
    /// Its figures.
    #[serde(flatten)]
    pub figures: Figures,
}

/// The body of `GET /v1/usage`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// The period covered.
    pub period: Period,
    /// `day` or `month`.
    pub granularity: &'static str,
    /// Every day or month of the period, oldest first, zeros included.
    pub buckets: Vec<Bucket>,
    /// The whole period.
    pub totals: Figures,
}

fn rate(part: i64, of: i64) -> Option<f64> {
    (of > 0).then(|| (part as f64 / of as f64 * 10_000.0).round() / 10_000.0)
}

fn date(name: &str, value: Option<&str>) -> Result<Option<NaiveDate>, ApiError> {
    value
        .map(|v| {
            NaiveDate::parse_from_str(v.trim(), "%Y-%m-%d").map_err(|_| {
                ApiError::invalid(format!("`{name}` must be a date YYYY-MM-DD, not {v:?}"))
            })
        })
        .transpose()
}

fn today() -> NaiveDate {
    DateTime::from_timestamp_millis(crate::ids::now_ms())
        .unwrap_or_default()
        .date_naive()
}

fn epoch() -> NaiveDate {
    NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default()
}

fn day_number(d: NaiveDate) -> i64 {
    (d - epoch()).num_days()
}

/// Checks the query: the period and granularity.
///
/// # Errors
/// `invalid_request` for a bad date, `from` after `to`, an unknown granularity, or a period
/// longer than [`MAX_DAYS`] (by day) / [`MAX_MONTH_DAYS`] (by month).
pub fn period(
    q: &UsageQuery,
    today: NaiveDate,
) -> Result<(NaiveDate, NaiveDate, &'static str), ApiError> {
    let granularity = match q.granularity.as_deref().map(str::trim) {
        None | Some("day") => "day",
        Some("month") => "month",
        Some(other) => {
            return Err(ApiError::invalid(format!(
                "`granularity` must be `day` or `month`, not {other:?}"
            )));
        }
    };
    let to = date("to", q.to.as_deref())?.unwrap_or(today);
    let from = date("from", q.from.as_deref())?
        .unwrap_or_else(|| to.checked_sub_days(Days::new(29)).unwrap_or(to));
    if from > to {
        return Err(ApiError::invalid("`from` is after `to`"));
    }
    let days = (to - from).num_days().unsigned_abs() + 1;
    let max = if granularity == "day" {
        MAX_DAYS
    } else {
        MAX_MONTH_DAYS
    };
    if days > max {
        return Err(ApiError::invalid(format!(
            "the period is {days} days; at most {max} days by {granularity}"
        )));
    }
    Ok((from, to, granularity))
}

/// The bucket start of `day` (days since the epoch).
fn bucket_of(day: i64, from: NaiveDate, granularity: &str) -> NaiveDate {
    let d = epoch()
        .checked_add_days(Days::new(day.unsigned_abs()))
        .unwrap_or(from);
    if granularity == "month" {
        d.with_day(1).unwrap_or(d).max(from)
    } else {
        d
    }
}

fn add_requests(f: &mut Figures, r: &RequestCount) {
    f.requests.total += r.count;
    *f.requests
        .by_endpoint
        .entry(format!("{} {}", r.method, r.route))
        .or_default() += r.count;
    *f.requests
        .by_status_class
        .entry(format!("{}xx", r.status_class))
        .or_default() += r.count;
}

fn add_analyses(f: &mut Figures, a: &AnalysisCount) {
    let of_kind = if a.kind == "application" {
        &mut f.applications
    } else {
        &mut f.analyses
    };
    of_kind.submitted += a.count;
    match a.status.as_str() {
        "completed" => {
            of_kind.completed += a.count;
            f.billable_units += a.count;
        }
        "failed" => of_kind.failed += a.count,
        _ => of_kind.processing += a.count,
    }
}

fn add_webhooks(f: &mut Figures, w: &WebhookCount) {
    f.webhooks.events += w.count;
    match w.status.as_str() {
        "delivered" => f.webhooks.delivered += w.count,
        "failed" => f.webhooks.failed += w.count,
        _ => f.webhooks.pending += w.count,
    }
}

fn finish(f: &mut Figures) {
    for class in ["2xx", "4xx", "5xx"] {
        f.requests
            .by_status_class
            .entry(class.to_owned())
            .or_default();
    }
    for a in [&mut f.analyses, &mut f.applications] {
        a.success_rate = rate(a.completed, a.completed + a.failed);
    }
    let w = &mut f.webhooks;
    w.delivery_rate = rate(w.delivered, w.delivered + w.failed);
}

/// Folds the counts into buckets and totals.
pub fn build(
    from: NaiveDate,
    to: NaiveDate,
    granularity: &'static str,
    requests: &[RequestCount],
    analyses: &[AnalysisCount],
    webhooks: &[WebhookCount],
) -> Usage {
    let mut buckets: BTreeMap<NaiveDate, Figures> = BTreeMap::new();
    let mut d = from;
    while d <= to {
        buckets
            .entry(bucket_of(day_number(d), from, granularity))
            .or_default();
        let Some(next) = d.succ_opt() else { break };
        d = next;
    }
    let mut totals = Figures::default();
    for r in requests {
        add_requests(&mut totals, r);
        add_requests(
            buckets
                .entry(bucket_of(r.day, from, granularity))
                .or_default(),
            r,
        );
    }
    for a in analyses {
        add_analyses(&mut totals, a);
        add_analyses(
            buckets
                .entry(bucket_of(a.day, from, granularity))
                .or_default(),
            a,
        );
    }
    for w in webhooks {
        add_webhooks(&mut totals, w);
        add_webhooks(
            buckets
                .entry(bucket_of(w.day, from, granularity))
                .or_default(),
            w,
        );
    }
    finish(&mut totals);
    Usage {
        period: Period {
            from: from.to_string(),
            to: to.to_string(),
            time_zone: "UTC",
        },
        granularity,
        buckets: buckets
            .into_iter()
            .map(|(start, mut figures)| {
                finish(&mut figures);
                Bucket {
                    start: start.to_string(),
                    figures,
                }
            })
            .collect(),
        totals,
    }
}

/// Usage of the calling partner in Live.
#[utoipa::path(
    get, path = "/v1/usage", tag = "usage",
    params(UsageQuery),
    responses(
        (status = 200, description = "Usage figures by day or month, and totals", body = Usage),
        (status = 400, description = "Bad date, period or granularity (`invalid_request`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Sandbox key (`live_mode_required`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    query: Result<Query<UsageQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    caller.require_live("GET /v1/usage")?;
    let Query(query) = query.map_err(|e| ApiError::invalid(e.body_text()))?;
    let (from, to, granularity) = period(&query, today())?;
    let owner = caller.owner();
    let from_ms = day_number(from) * DAY_MS;
    let to_ms = (day_number(to) + 1) * DAY_MS;
    let requests = state.storage.request_counts(&owner, from_ms, to_ms).await?;
    let analyses = state
        .storage
        .analysis_counts(&owner, from_ms, to_ms)
        .await?;
    let webhooks = state.storage.webhook_counts(&owner, from_ms, to_ms).await?;
    let usage = build(from, to, granularity, &requests, &analyses, &webhooks);
    Ok(axum::Json(usage).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    #[test]
    fn periods_default_and_are_checked() {
        let today = day("2026-11-22");
        let q = UsageQuery::default();
        assert_eq!(
            period(&q, today).ok(),
            Some((day("2026-10-24"), today, "day"))
        );
        let bad = |from: &str, to: &str, g: &str| {
            period(
                &UsageQuery {
                    from: Some(from.into()),
                    to: Some(to.into()),
                    granularity: Some(g.into()),
                },
                today,
            )
            .is_err()
        };
        assert!(bad("2026-11-23", "2026-11-22", "day"));
        assert!(bad("2026-13-01", "2026-11-22", "day"));
        assert!(bad("2026-01-01", "2026-11-22", "week"));
        assert!(bad("2024-01-01", "2026-11-22", "day"));
        assert!(!bad("2024-01-01", "2026-11-22", "month"));
    }

    #[test]
    fn months_fold_days() {
        let (from, to) = (day("2026-10-15"), day("2026-11-22"));
        let requests = [RequestCount {
            day: day_number(day("2026-10-20")),
            method: "GET".into(),
            route: "/v1/usage".into(),
            status_class: 2,
            count: 3,
        }];
        let analyses = [
            AnalysisCount {
                day: day_number(day("2026-11-02")),
                status: "completed".into(),
                kind: "analysis".into(),
                count: 3,
            },
            AnalysisCount {
                day: day_number(day("2026-11-03")),
                status: "failed".into(),
                kind: "analysis".into(),
                count: 1,
            },
            AnalysisCount {
                day: day_number(day("2026-11-03")),
                status: "completed".into(),
                kind: "application".into(),
                count: 2,
            },
        ];
        let u = build(from, to, "month", &requests, &analyses, &[]);
        let starts: Vec<_> = u.buckets.iter().map(|b| b.start.as_str()).collect();
        assert_eq!(starts, ["2026-10-15", "2026-11-01"]);
        assert_eq!(u.buckets[0].figures.requests.total, 3);
        // An application is one unit, counted apart from analyses.
        assert_eq!(u.buckets[1].figures.billable_units, 5);
        assert_eq!(u.totals.analyses.success_rate, Some(0.75));
        assert_eq!(u.totals.applications.completed, 2);
        assert_eq!(u.totals.applications.success_rate, Some(1.0));
        assert_eq!(u.totals.webhooks.delivery_rate, None);
        assert_eq!(
            build(from, to, "day", &requests, &analyses, &[])
                .buckets
                .len(),
            39
        );
    }
}
