//! Writing to standard output the way Unix tools do: a reader that goes away early
//! (`alama parse … | head`) ends the program quietly with exit code 0.

use std::io::{ErrorKind, Write};

/// Writes `bytes` to standard output and flushes.
///
/// A closed pipe (`EPIPE`: the reader exited) ends the process at once with exit code 0 and
/// nothing on standard error, as `cat`, `grep` and the other Unix tools do.
///
/// # Errors
/// Any other write error, as the one-line `error[io_error]: …` text.
pub fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(format!("error[io_error]: cannot write the output: {e}")),
    }
}
