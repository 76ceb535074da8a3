//! `alama`: the command-line tool of the Alama engine.
fn main() {}
