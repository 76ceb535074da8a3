//! The report's colours: brand, text, bands, severities, money in and out.

use crate::report::{Band, Severity};

use super::canvas::Rgb;

pub(super) const NAVY: Rgb = Rgb::hex(0x13_23_3F);
pub(super) const ACCENT: Rgb = Rgb::hex(0x0E_7C_86);
pub(super) const INK: Rgb = Rgb::hex(0x1F_29_33);
pub(super) const MUTED: Rgb = Rgb::hex(0x5F_6B_77);
pub(super) const FAINT: Rgb = Rgb::hex(0x8A_94_9E);
pub(super) const RULE: Rgb = Rgb::hex(0xD9_DE_E4);
pub(super) const PANEL: Rgb = Rgb::hex(0xF3_F5_F8);
pub(super) const TRACK: Rgb = Rgb::hex(0xE4_E8_EC);
pub(super) const WHITE: Rgb = Rgb::hex(0xFF_FF_FF);
pub(super) const ON_NAVY: Rgb = Rgb::hex(0xB8_C4_D6);
pub(super) const MONEY_IN: Rgb = Rgb::hex(0x1F_8A_70);
pub(super) const MONEY_OUT: Rgb = Rgb::hex(0xE0_6A_4E);
pub(super) const GOOD: Rgb = Rgb::hex(0x2E_8B_57);
pub(super) const WARN: Rgb = Rgb::hex(0xD4_8A_06);
pub(super) const BAD: Rgb = Rgb::hex(0xC2_3B_2E);
pub(super) const INFO: Rgb = Rgb::hex(0x2F_6F_B5);
/// The five bands' colours, lowest first.
pub(super) fn band_color(band: Band) -> Rgb {
    match band {
        Band::Poor => Rgb::hex(0xC8_3E_2E),
        Band::Fair => Rgb::hex(0xE8_8A_1A),
        Band::Good => Rgb::hex(0xD9_B3_1C),
        Band::VeryGood => Rgb::hex(0x7C_B3_42),
        Band::Excellent => Rgb::hex(0x2E_8B_57),
    }
}

pub(super) fn severity_color(s: Severity) -> Rgb {
    match s {
        Severity::Info => INFO,
        Severity::Warning => WARN,
        Severity::Critical => BAD,
    }
}

pub(super) fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Info => "INFO",
        Severity::Warning => "WARNING",
        Severity::Critical => "CRITICAL",
    }
}

/// Colour of a factor bar by the share of its points earned.
pub(super) fn ratio_color(ratio: f32) -> Rgb {
    if ratio >= 0.75 {
        GOOD
    } else if ratio >= 0.5 {
        Rgb::hex(0x7C_B3_42)
    } else if ratio >= 0.25 {
        WARN
    } else {
        BAD
    }
}
