//! Writing results to standard output and messages to standard error.
//!
//! This module owns what happens when a write fails. Results go through
//! [`Out`], which remembers the first failure instead of panicking (as
//! `println!` does) or dropping it (as `let _ = write!` does): a reader
//! that went away (`vksync plan X | head -1`, `EPIPE`) ends the output
//! quietly, as Unix tools do, and the command keeps its own exit status;
//! any other failure (`> /dev/full`) is reported once on stderr by the
//! caller of [`Out::finish`] and turns the exit status into 2. Messages go
//! through [`to_stderr!`], which never panics: when stderr itself cannot be written there
//! is nobody left to tell. It does not decide what is printed.

use std::fmt;
use std::io::{self, Write as _};

/// Standard output with its first failure remembered.
pub struct Out {
    stdout: io::StdoutLock<'static>,
    /// The first failure; nothing more is written after one.
    failed: Option<io::Error>,
}

/// How writing the results went.
#[derive(Debug)]
pub enum Written {
    /// Everything was written.
    All,
    /// The reader closed the pipe: the rest was dropped on purpose.
    Closed,
    /// Writing failed.
    Failed(io::Error),
}

impl Out {
    pub fn stdout() -> Out {
        Out {
            stdout: io::stdout().lock(),
            failed: None,
        }
    }

    /// Writes `text` as is (no newline added), unless a write failed before.
    pub fn text(&mut self, text: &str) {
        if self.failed.is_none() {
            if let Err(e) = self.stdout.write_all(text.as_bytes()) {
                self.failed = Some(e);
            }
        }
    }

    /// Writes one line, unless a write failed before.
    pub fn line(&mut self, line: fmt::Arguments<'_>) {
        if self.failed.is_none() {
            if let Err(e) = writeln!(self.stdout, "{line}") {
                self.failed = Some(e);
            }
        }
    }

    /// Whether the reader is gone or writing failed: there is no point in
    /// producing more output.
    pub fn stopped(&self) -> bool {
        self.failed.is_some()
    }

    /// Flushes, and says how it all went.
    pub fn finish(mut self) -> Written {
        if self.failed.is_none() {
            if let Err(e) = self.stdout.flush() {
                self.failed = Some(e);
            }
        }
        match self.failed {
            None => Written::All,
            Some(e) if e.kind() == io::ErrorKind::BrokenPipe => Written::Closed,
            Some(e) => Written::Failed(e),
        }
    }
}

/// `out.line(format_args!(...))`, spelled like `writeln!`.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        $out.line(format_args!($($arg)*))
    };
}
pub(crate) use say;

/// One line on stderr; a failure to write it is ignored (there is nowhere
/// left to report it).
pub fn stderr_line(line: fmt::Arguments<'_>) {
    let text = format!("{line}\n");
    let _ = io::stderr().write_all(text.as_bytes());
}

/// `stderr_line(format_args!(...))`, spelled like `eprintln!`.
macro_rules! to_stderr {
    ($($arg:tt)*) => {
        $crate::output::stderr_line(format_args!($($arg)*))
    };
}
pub(crate) use to_stderr;

#[cfg(test)]
mod tests {
    use super::*;

    /// How a failure of standard output is classified: (error, verdict).
    #[test]
    fn a_closed_pipe_is_quiet_and_other_failures_are_errors() {
        let cases = [
            (io::ErrorKind::BrokenPipe, "closed"),
            (io::ErrorKind::Other, "failed"),
            (io::ErrorKind::PermissionDenied, "failed"),
        ];
        for (kind, expected) in cases {
            let out = Out {
                stdout: io::stdout().lock(),
                failed: Some(io::Error::from(kind)),
            };
            let got = match out.finish() {
                Written::All => "all",
                Written::Closed => "closed",
                Written::Failed(_) => "failed",
            };
            assert_eq!(got, expected, "{kind:?}");
        }
    }
}
