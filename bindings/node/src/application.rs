//! `scoreApplication`: several statements of one applicant scored as one application
//! (docs/applications.md), on the libuv thread pool. Converts the arguments and calls
//! `alama_core::score_application`; nothing else.

use std::str::FromStr;

use napi::bindgen_prelude::{FromNapiValue, Object, ToNapiValue, Unknown};
use napi::{Env, ScopedTask, ValueType};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::error;
use crate::input::Input;
use crate::scorecard::ScoreOptions;

/// The loan terms of `options.terms`, as the engine's `Terms::from_options` takes them: money
/// and rates as decimal strings (`"20000"`, `"0.035"`), the tenor a number of months.
#[derive(Default)]
pub struct JsTerms {
    principal: Option<Decimal>,
    tenor_months: Option<u32>,
    monthly_rate: Option<Decimal>,
    total_cost: Option<Decimal>,
    fees: Option<Decimal>,
}

impl JsTerms {
    /// Reads `options.terms` (absent, `undefined` or `null`: no terms).
    ///
    /// # Errors
    /// `InvalidArg` when it is not an object, or a money field is not a decimal string.
    pub fn from_options(options: Option<&Unknown<'_>>) -> napi::Result<Self> {
        let Some(options) = options else {
            return Ok(Self::default());
        };
        if options.get_type()? != ValueType::Object {
            return Ok(Self::default());
        }
        let options = Object::from_unknown(*options)?;
        let Some(terms) = options.get::<Unknown<'_>>("terms")? else {
            return Ok(Self::default());
        };
        if matches!(terms.get_type()?, ValueType::Undefined | ValueType::Null) {
            return Ok(Self::default());
        }
        if terms.get_type()? != ValueType::Object {
            return Err(error::invalid_arg("options.terms must be an object"));
        }
        let terms = Object::from_unknown(terms)?;
        let money = |key: &str| -> napi::Result<Option<Decimal>> {
            match terms.get::<String>(key) {
                Ok(None) => Ok(None),
                Ok(Some(text)) => Decimal::from_str(text.trim()).map(Some).map_err(|_| {
                    error::invalid_arg(format!("options.terms.{key} must be a decimal string"))
                }),
                Err(_) => Err(error::invalid_arg(format!(
                    "options.terms.{key} must be a decimal string (JS numbers are floats)"
                ))),
            }
        };
        Ok(Self {
            principal: money("principal")?,
            tenor_months: terms.get::<u32>("tenorMonths").map_err(|_| {
                error::invalid_arg("options.terms.tenorMonths must be a number of months")
            })?,
            monthly_rate: money("monthlyRate")?,
            total_cost: money("totalCost")?,
            fees: money("fees")?,
        })
    }
}

/// The work of one `scoreApplication` call, run on the libuv thread pool.
pub struct ApplicationTask {
    pub inputs: Option<Vec<Input>>,
    pub options: ScoreOptions,
    pub terms: JsTerms,
}

impl<'task> ScopedTask<'task> for ApplicationTask {
    type Output = alama_core::Result<Value>;
    type JsValue = Unknown<'task>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        let Some(inputs) = self.inputs.take() else {
            return Err(napi::Error::from_reason("scoreApplication task ran twice"));
        };
        let options = std::mem::take(&mut self.options);
        let t = std::mem::take(&mut self.terms);
        let run = || -> alama_core::Result<alama_core::ApplicationReport> {
            let parse = options.parse.into_core()?;
            let terms = alama_core::Terms::from_options(
                t.principal,
                t.tenor_months,
                t.monthly_rate,
                t.total_cost,
                t.fees,
            )?;
            let statements = inputs
                .into_iter()
                .map(|i| i.into_statement(&parse))
                .collect::<alama_core::Result<Vec<_>>>()?;
            alama_core::score_application(
                &statements,
                options.scorecard.as_deref(),
                terms.as_ref(),
                parse.as_of,
            )
        };
        let scored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
            .map_err(napi::bindgen_prelude::panic_to_error)?;
        match scored {
            Ok(report) => serde_json::to_value(&report)
                .map(Ok)
                .map_err(|e| napi::Error::from_reason(e.to_string())),
            Err(e) => Ok(Err(e)),
        }
    }

    fn resolve(&mut self, env: &'task Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        output
            .map_err(|e| error::to_js(*env, &e))?
            .into_unknown(env)
    }
}
