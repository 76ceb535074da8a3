//! `alama webhooks …`: webhook endpoints (add, list with their delivery figures, remove), the
//! developer portal's webhook settings from the command line.

use std::io::Write;

use clap::Subcommand;

use super::{DatabaseArgs, db_error, partner_name, runtime, write_error};
use crate::ids::rfc3339;
use crate::keys::Environment;
use crate::storage::Owner;
use crate::webhooks;

/// `alama webhooks …`: manage webhook endpoints (the developer portal's webhook settings).
#[derive(Debug, Clone, Subcommand)]
pub enum WebhooksCommand {
    /// Register an endpoint for `score.completed` events and print its `whsec_…` signing
    /// secret once, alone on a line of standard output.
    Add {
        /// Partner name (created if new).
        #[arg(long)]
        partner: String,
        /// Environment whose reports send events.
        #[arg(long, value_enum)]
        environment: Environment,
        /// `https://…` (or `http://…`) URL that receives the events.
        #[arg(long)]
        url: String,
        /// Accept loopback, private and link-local addresses (tests, local development).
        #[arg(long)]
        allow_private_webhook_urls: bool,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// List active endpoints (never their secrets) with their event counts and delivery rate
    /// (delivered / (delivered + failed)).
    List {
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// Remove an endpoint by id (`whe_…`): no new events; pending ones are still tried.
    Remove {
        /// The endpoint id shown by `alama webhooks add` / `list`.
        id: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
}

/// Runs `alama webhooks …`, writing results to standard output and notes to standard error.
///
/// # Errors
/// A one-line message (`error[…]: …`).
pub fn run_webhooks(command: &WebhooksCommand) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    runtime()?.block_on(webhooks_command(command, &mut out, &mut err))
}

/// [`run_webhooks`] on given writers (for tests).
///
/// # Errors
/// A one-line message (`error[…]: …`).
pub async fn webhooks_command(
    command: &WebhooksCommand,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    match command {
        WebhooksCommand::Add {
            partner,
            environment,
            url,
            allow_private_webhook_urls,
            db,
        } => {
            let name = partner_name(partner)?;
            webhooks::ssrf::parse(url).map_err(|e| format!("error[invalid_request]: {e}"))?;
            let storage = db.open().await?;
            let registered = async {
                let partner = storage
                    .ensure_partner(name)
                    .await
                    .map_err(webhooks::RegisterError::Storage)?;
                let owner = Owner {
                    partner_id: partner.id.clone(),
                    environment: *environment,
                };
                webhooks::register(&storage, &owner, url, *allow_private_webhook_urls)
                    .await
                    .map(|(id, secret)| (partner, id, secret))
            }
            .await;
            storage.close().await;
            let (partner, id, secret) = registered.map_err(|e| match e {
                webhooks::RegisterError::Url(e) => format!("error[invalid_request]: {e}"),
                webhooks::RegisterError::Storage(e) => db_error(&e),
            })?;
            writeln!(out, "{secret}").map_err(write_error)?;
            writeln!(
                err,
                "added {environment} webhook endpoint {id} for partner {:?}: store the signing \
                 secret now, it is not shown again",
                partner.name
            )
            .map_err(write_error)?;
        }
        WebhooksCommand::List { db } => list(db, out).await?,
        WebhooksCommand::Remove { id, db } => {
            let storage = db.open().await?;
            let removed = storage.remove_endpoint(id, crate::ids::now_ms()).await;
            storage.close().await;
            if !removed.map_err(|e| db_error(&e))? {
                return Err(format!(
                    "error[not_found]: no active webhook endpoint {id:?}"
                ));
            }
            writeln!(out, "removed {id}").map_err(write_error)?;
        }
    }
    Ok(())
}

/// `alama webhooks list`: active endpoints with their event counts and delivery rate.
async fn list(db: &DatabaseArgs, out: &mut dyn Write) -> Result<(), String> {
    let storage = db.open().await?;
    let endpoints = storage.list_endpoints().await.map_err(|e| db_error(&e));
    let counts = storage
        .endpoint_event_counts()
        .await
        .map_err(|e| db_error(&e));
    storage.close().await;
    let (endpoints, counts) = (endpoints?, counts?);
    writeln!(
        out,
        "{:<30}  {:<20}  {:<7}  {:<24}  {:>6}  {:>9}  {:>6}  {:>7}  {:>8}  URL",
        "ID", "PARTNER", "ENV", "CREATED", "EVENTS", "DELIVERED", "FAILED", "PENDING", "DELIVERY"
    )
    .map_err(write_error)?;
    for e in endpoints {
        let count = |status: &str| {
            counts
                .iter()
                .filter(|(id, s, _)| *id == e.id && s == status)
                .map(|(_, _, n)| *n)
                .sum::<i64>()
        };
        let (delivered, failed, pending) = (count("delivered"), count("failed"), count("pending"));
        let rate = if delivered + failed > 0 {
            format!(
                "{:.1}%",
                delivered as f64 * 100.0 / (delivered + failed) as f64
            )
        } else {
            "-".to_owned()
        };
        writeln!(
            out,
            "{:<30}  {:<20}  {:<7}  {:<24}  {:>6}  {:>9}  {:>6}  {:>7}  {:>8}  {}",
            e.id,
            e.partner_name,
            e.owner.environment.as_str(),
            rfc3339(e.created_at),
            delivered + failed + pending,
            delivered,
            failed,
            pending,
            rate,
            e.url
        )
        .map_err(write_error)?;
    }
    Ok(())
}
