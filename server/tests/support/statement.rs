//! A synthetic M-Pesa style CSV statement (shared by the tests and the `load` example).

/// An M-Pesa style CSV statement of `rows` rows over about a year, newest first.
pub fn statement_csv(rows: usize) -> Vec<u8> {
    use std::fmt::Write;
    let mut out = String::from(
        "Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance\n",
    );
    let mut balance: i64 = 5_000_000; // cents
    let mut lines = Vec::with_capacity(rows);
    let start = chrono_like_start();
    for i in 0..rows {
        let minutes = i64::try_from(i * 525_600 / rows.max(1)).unwrap_or(0); // over 365 days
        let t = start + minutes * 60;
        let (details, paid_in, withdrawn) = match i % 20 {
            0 => ("Salary Payment from ACME LIMITED".to_owned(), 3_500_000, 0),
            1 | 11 => ("Airtime Purchase".to_owned(), 0, 10_000),
            2 => ("Funds received from JOHN DOE".to_owned(), 250_000, 0),
            3 => (
                "Pay Bill Online to 888880 - KPLC PREPAID Acc. 123".to_owned(),
                0,
                150_000,
            ),
            4 => (
                "Customer Transfer to 0712***678 - JANE DOE".to_owned(),
                0,
                200_000,
            ),
            _ => (
                format!("Merchant Payment to 5{:05} - SHOP {}", i % 977, i % 13),
                0,
                (i64::try_from(i % 9).unwrap_or(0) + 1) * 5_000,
            ),
        };
        balance += paid_in - withdrawn;
        lines.push(format!(
            "T{:09},{},{details},Completed,{},{},{}",
            i,
            format_time(t),
            money(paid_in),
            money(withdrawn),
            money(balance)
        ));
    }
    for line in lines.iter().rev() {
        let _ = writeln!(out, "{line}");
    }
    out.into_bytes()
}

fn money(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// 2024-01-01 00:00:00 as seconds since the epoch.
fn chrono_like_start() -> i64 {
    1_704_067_200
}

fn format_time(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Howard Hinnant's days → civil date.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}
