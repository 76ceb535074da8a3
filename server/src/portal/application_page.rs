//! What an application's page adds to a report's ([`super::report_page`], which lays out its
//! combined score, factors, reason codes, integrity — overlaps that disagree, own transfers,
//! names, gaps, statements seen before — cash flow and insights): the statements it read and
//! the affordability of the loan terms asked for, from the stored `ApplicationReport` JSON as
//! `GET /v1/applications/{id}` gives it.

use alama_core::{Affordability, ApplicationReport, Pricing, StatementRead};

use super::report_page::{self, Completed};

/// One statement the application read.
#[derive(Debug, Clone)]
pub struct StatementReadView {
    /// The engine's report id of the statement alone (`rpt_…`).
    pub report_id: String,
    /// The wallet's name.
    pub wallet: String,
    /// The masked number, or `–`.
    pub phone: String,
    /// `"Jan 2024 - Mar 2024"`.
    pub period: String,
    /// Its own integrity verdict.
    pub integrity: String,
    /// Its evidence level in words (`"CSV export"`).
    pub evidence: &'static str,
}

/// The terms asked against the affordable instalment.
#[derive(Debug, Clone)]
pub struct AffordabilityView {
    /// `"KES 20,000.00 over 6 months at 3.5 % a month, fees KES 0.00"`.
    pub terms: String,
    /// The instalment the terms ask for.
    pub instalment: String,
    /// The affordable monthly instalment.
    pub affordable: String,
    /// Whether it fits.
    pub fits: bool,
    /// The largest principal that fits at these terms.
    pub largest: String,
}

/// An application's own sections.
#[derive(Debug, Clone)]
pub struct ApplicationView {
    /// The statements read, by period.
    pub statements: Vec<StatementReadView>,
    /// The affordability, when terms were given.
    pub affordability: Option<AffordabilityView>,
}

/// The report page's content of `application` (its combined report) and its own sections.
pub fn completed(mut application: ApplicationReport) -> (Completed, ApplicationView) {
    let statements = std::mem::take(&mut application.statements)
        .iter()
        .map(statement)
        .collect();
    let affordability = application.affordability.take().as_ref().map(affordable);
    let report = crate::api::applications::combined_report(application);
    (
        report_page::completed(&report),
        ApplicationView {
            statements,
            affordability,
        },
    )
}

fn statement(s: &StatementRead) -> StatementReadView {
    let wallet = alama_core::wallets::find(&s.provider)
        .map_or_else(|| s.provider.clone(), |w| w.name.to_owned());
    StatementReadView {
        report_id: s.report_id.clone(),
        evidence: report_page::evidence(s.evidence_level, &wallet).0,
        wallet,
        phone: s
            .mobile_number_masked
            .clone()
            .unwrap_or_else(|| "–".to_owned()),
        period: s.statement_period.clone(),
        integrity: s.integrity_status.clone(),
    }
}

fn affordable(a: &Affordability) -> AffordabilityView {
    let money = |v| alama_core::money::display(&a.currency, v);
    let price = match a.terms.pricing {
        Pricing::MonthlyRate(r) => format!(
            "at {} % a month",
            (r * rust_decimal::Decimal::ONE_HUNDRED).normalize()
        ),
        Pricing::TotalCost(c) => format!("for a total cost of {}", money(c)),
    };
    AffordabilityView {
        terms: format!(
            "{} over {} months {price}, fees {}",
            money(a.terms.principal),
            a.terms.tenor_months,
            money(a.terms.fees)
        ),
        instalment: money(a.instalment),
        affordable: money(a.affordable_instalment),
        fits: a.fits,
        largest: money(a.largest_principal),
    }
}
