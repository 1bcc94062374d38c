//! The styling of text output: `--color`, and the ANSI styles of the
//! words that carry verdicts.

use super::args::ColorChoice;

/// ANSI styling of the words that carry the verdicts, or none.
#[derive(Clone, Copy)]
pub(super) struct Paint {
    on: bool,
}

impl Paint {
    /// Styling when `on`.
    fn new(on: bool) -> Self {
        Paint { on }
    }

    fn style(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `error`, bold red.
    pub(super) fn error(self) -> String {
        self.style("1;31", "error")
    }

    /// `warning`, bold yellow.
    pub(super) fn warning(self) -> String {
        self.style("1;33", "warning")
    }

    /// A good outcome, green.
    pub(super) fn good(self, text: &str) -> String {
        self.style("32", text)
    }

    /// A bad outcome, red.
    pub(super) fn bad(self, text: &str) -> String {
        self.style("31", text)
    }

    /// A neutral outcome, dim.
    pub(super) fn dim(self, text: &str) -> String {
        self.style("2", text)
    }
}

/// The styling of stdout and of stderr.
#[derive(Clone, Copy)]
pub(super) struct Colors {
    /// For stdout.
    pub(super) stdout: Paint,
    /// For stderr.
    pub(super) stderr: Paint,
}

impl Colors {
    /// The styling of text output on stdout and stderr for `--color`: `auto`
    /// colors a terminal unless `NO_COLOR` is set to anything but nothing.
    pub(super) fn for_choice(choice: ColorChoice) -> Self {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let on = |terminal: bool| match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && !no_color,
        };
        Colors {
            stdout: Paint::new(on(std::io::stdout().is_terminal())),
            stderr: Paint::new(on(std::io::stderr().is_terminal())),
        }
    }
}
