"""Seeded synthetic M-Pesa statements built in Python (invented people and businesses only).

Used by the tests and by benches/python_bench.py. The same ``(seed, months)`` always gives the
same statement. Amounts are :class:`decimal.Decimal` with two places, times naive datetimes
(Africa/Nairobi local time), rows newest first with a running balance, as Safaricom prints them.
"""

from __future__ import annotations

import random
import string
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

#: (Details text, direction) pairs in Safaricom's wording, with invented counterparties.
INFLOWS = [
    "Salary Payment from 600100 - JUA KALI WORKS LTD",
    "Business Payment from 300200 - SAVANNAH LOGISTICS LTD via API",
    "Funds received from 0700000001 - AMANI TESTMAN",
    "Deposit of Funds at Agent Till 123456 - KIJIJI SHOP",
    "OverDraft of Credit Party",
]
OUTFLOWS = [
    "Customer Transfer to 0700000002 - WANJIRU SAMPLEY",
    "Merchant Payment to 501480 - MAMA MBOGA STORES",
    "Pay Bill to 888880 - KPLC PREPAID Acc. 00000000001",
    "Customer Withdrawal At Agent Till 654321 - UMOJA AGENT",
    "Airtime Purchase",
    "OD Loan Repayment to 232323 - M-PESA Overdraw",
    "Customer Transfer of Funds Charge",
]

_RECEIPT = string.ascii_uppercase + string.digits
CENT = Decimal("0.01")


def receipt(rng: random.Random) -> str:
    """A 10-character M-Pesa-like receipt number."""
    return "".join(rng.choice(_RECEIPT) for _ in range(10))


def statement_dict(seed: int, months: int = 6, rows_per_month: int = 40) -> dict[str, Any]:
    """A canonical statement dict (for ``alama.Statement.from_dict``) of about
    ``months * rows_per_month`` rows ending on 2024-06-30."""
    rng = random.Random(seed)
    end = datetime(2024, 6, 30, 20, 0, 0)
    start = end - timedelta(days=30 * months)
    times = sorted(
        start + timedelta(seconds=rng.randrange(int((end - start).total_seconds())))
        for _ in range(months * rows_per_month)
    )
    balance = (Decimal(rng.randrange(0, 500_000)) / 100).quantize(CENT)
    rows = []
    for time in times:
        incoming = rng.random() < 0.35 or balance < 100
        amount = (Decimal(rng.randrange(1_000, 4_000_000 if incoming else 800_000)) / 100).quantize(CENT)
        if not incoming and amount > balance:
            amount = balance
        balance += amount if incoming else -amount
        status = "completed" if rng.random() < 0.97 else "failed"
        if status != "completed":
            balance -= amount if incoming else -amount
        rows.append(
            {
                "receiptNo": receipt(rng),
                "completedAt": time,
                "details": rng.choice(INFLOWS if incoming else OUTFLOWS),
                "status": status,
                "paidIn": amount if incoming else Decimal("0.00"),
                "withdrawn": Decimal("0.00") if incoming else amount,
                "balance": balance,
            }
        )
    rows.reverse()
    return {
        "provider": "mpesa",
        "currency": "KES",
        "holder": {"name": "TEST PERSON", "mobileNumber": "0700000000"},
        "period": {"start": start.date(), "end": end.date()},
        "transactions": rows,
    }
