//! The category of a transaction: what it was, in M-Pesa's terms. Part of the statement model
//! (every row carries one); [`crate::categorise`] decides it from the row's Details.

use serde::{Deserialize, Serialize};

/// What a transaction was, in M-Pesa's terms. Serialised in `snake_case` (`"buy_goods"`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Category {
    /// Send Money to another person ("Customer Transfer to …", also when Fuliza funds it, and
    /// M-PESA Global transfers abroad).
    SendMoney,
    /// Money received from a person ("Funds received from …"), from another wallet (Airtel Money
    /// "Offnet" transfers), from abroad, or from a Pochi la Biashara business.
    ReceivedMoney,
    /// Cash deposited at an agent ("Deposit of Funds at Agent Till …").
    AgentDeposit,
    /// Cash withdrawn at an agent or ATM ("Customer Withdrawal At Agent Till …").
    AgentWithdrawal,
    /// Lipa na M-Pesa Paybill payment that is not a utility, lender, bank or betting firm.
    Paybill,
    /// Lipa na M-Pesa Buy Goods / Till ("Merchant Payment …"), and merchant collections through a
    /// bank Paybill ("Lipa na KCB").
    BuyGoods,
    /// Pochi la Biashara ("Customer Payment to Small Business …", "Customer Send Money to Micro
    /// SME Business …").
    PochiLaBiashara,
    /// Airtime and data bundles ("Airtime Purchase", "Buy Bundles", "Safaricom Offers").
    AirtimeAndBundles,
    /// A Fuliza overdraft draw ("`OverDraft` of Credit Party").
    FulizaDraw,
    /// A Fuliza repayment ("OD Loan Repayment to 232323 - M-PESA Overdraw").
    FulizaRepayment,
    /// A mobile bank loan paid into the wallet (M-Shwari "Loan Disburse", Hustler Fund "Term
    /// Loan Disbursement", KCB M-PESA loans).
    MobileLoanDisbursement,
    /// A repayment of an M-Shwari, KCB M-PESA or Hustler Fund loan ("… Loan Repayment …").
    MobileLoanRepayment,
    /// A loan from another digital lender (Tala, Branch, Zenka, Timiza, …) paid into the wallet.
    DigitalLoanDisbursement,
    /// A repayment to another digital lender.
    DigitalLoanRepayment,
    /// Money moved into savings: M-Shwari, KCB M-PESA, Hustler Fund savings, a SACCO.
    SavingsDeposit,
    /// Money moved back from savings: M-Shwari, KCB M-PESA, Hustler Fund savings, a SACCO.
    SavingsWithdrawal,
    /// Betting and gaming (`SportPesa`, Betika, Odibets, …), either direction.
    Betting,
    /// Utilities and recurring bills: power (KPLC), water, TV, internet, Safaricom Home and
    /// Postpaid, rent, insurance, statutory contributions (NHIF/SHA, NSSF), tax, school fees.
    Utilities,
    /// Salary or business payment (B2C) into the wallet ("Business Payment from …", "Salary
    /// Payment from …", bulk payments, promotions).
    SalaryAndBusinessPayments,
    /// Transaction charges and fees ("… Charge").
    Charges,
    /// Reversals of earlier transactions ("… Reversal …"), either direction.
    Reversal,
    /// Transfers between the wallet and a bank account (Paybill to a bank, B2C from a bank):
    /// the statement does not show whose bank account it is, so these are treated as the
    /// holder's own money moving, not as income or spending.
    OwnAccountTransfer,
    /// Recognised as a transaction but none of the above (including an empty Details cell).
    Other,
    /// Not categorised yet (the default when input omits a category).
    #[default]
    Uncategorised,
}

impl Category {
    /// Whether rows of this category move money between people (send money, money
    /// received, Pochi la Biashara): the rows that name a counterparty and can form round
    /// trips.
    pub fn is_person_to_person(self) -> bool {
        matches!(
            self,
            Category::SendMoney | Category::ReceivedMoney | Category::PochiLaBiashara
        )
    }

    /// Every category, in declaration order.
    pub const ALL: [Category; 24] = [
        Category::SendMoney,
        Category::ReceivedMoney,
        Category::AgentDeposit,
        Category::AgentWithdrawal,
        Category::Paybill,
        Category::BuyGoods,
        Category::PochiLaBiashara,
        Category::AirtimeAndBundles,
        Category::FulizaDraw,
        Category::FulizaRepayment,
        Category::MobileLoanDisbursement,
        Category::MobileLoanRepayment,
        Category::DigitalLoanDisbursement,
        Category::DigitalLoanRepayment,
        Category::SavingsDeposit,
        Category::SavingsWithdrawal,
        Category::Betting,
        Category::Utilities,
        Category::SalaryAndBusinessPayments,
        Category::Charges,
        Category::Reversal,
        Category::OwnAccountTransfer,
        Category::Other,
        Category::Uncategorised,
    ];
}
