//! The one reading of a DNS host name that launch hosts and frame origins share.

/// The names `check` accepts, as an unanchored regular expression for the API document,
/// but for a last label starting with a digit (see `LaunchHost::PATTERN`).
macro_rules! dns_name_pattern {
    () => {
        "([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?"
    };
}
pub(crate) use dns_name_pattern;

/// Why a text is not a lower-case DNS host name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DnsNameProblem {
    /// Longer than 253 characters, or a label longer than 63.
    Length,
    /// Upper-case letters: names are compared as written, so they are written in lower case.
    UpperCase,
    /// A character other than `a-z`, `0-9`, `-` and the dots between labels, an empty
    /// label, or a label starting or ending with `-`.
    Shape,
    /// A single label (`localhost`): not a name the public DNS can point at the service.
    SingleLabel,
    /// An IP address, or a last label of digits only.
    Address,
}

impl DnsNameProblem {
    /// What to write instead, for a problem's detail.
    pub(crate) fn explain(self) -> &'static str {
        match self {
            Self::Length => "is too long (at most 253 characters, 63 per label)",
            Self::UpperCase => "must be written in lower case",
            Self::Shape => "must be dot-separated labels of a-z, 0-9 and inner hyphens",
            Self::SingleLabel => "must have at least two labels, like play.example.com",
            Self::Address => "must be a DNS name, not an IP address",
        }
    }
}

/// Checks a lower-case DNS host name: labels of `a-z0-9-` (not starting or ending with
/// `-`) of 1 to 63 characters, at least two of them, at most 253 characters in all, and
/// a last label that is not all digits.
pub(crate) fn check(name: &str) -> Result<(), DnsNameProblem> {
    if name.len() > 253 {
        return Err(DnsNameProblem::Length);
    }
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(DnsNameProblem::UpperCase);
    }
    let labels: Vec<&str> = name.split('.').collect();
    for label in &labels {
        if label.len() > 63 {
            return Err(DnsNameProblem::Length);
        }
        let allowed = label
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if label.is_empty() || !allowed || label.starts_with('-') || label.ends_with('-') {
            return Err(DnsNameProblem::Shape);
        }
    }
    if labels.len() < 2 {
        return Err(DnsNameProblem::SingleLabel);
    }
    if labels
        .last()
        .is_some_and(|last| last.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(DnsNameProblem::Address);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lower_case_dotted_labels() {
        for good in [
            "play.casino.example",
            "a.b",
            "xn--bcher-kva.example",
            "1.example",
            "a-b.c-d.example",
        ] {
            assert_eq!(check(good), Ok(()), "{good}");
        }
        let long_label = format!("{}.example", "a".repeat(64));
        let long_name = format!("{}.example", vec!["a".repeat(60); 5].join("."));
        for (bad, problem) in [
            ("Play.Casino.example", DnsNameProblem::UpperCase),
            ("play..example", DnsNameProblem::Shape),
            (".example", DnsNameProblem::Shape),
            ("example.", DnsNameProblem::Shape),
            ("-play.example", DnsNameProblem::Shape),
            ("play-.example", DnsNameProblem::Shape),
            ("play_1.example", DnsNameProblem::Shape),
            ("play.example:443", DnsNameProblem::Shape),
            ("https://play.example", DnsNameProblem::Shape),
            ("play.example/path", DnsNameProblem::Shape),
            ("", DnsNameProblem::Shape),
            ("localhost", DnsNameProblem::SingleLabel),
            ("192.168.1.10", DnsNameProblem::Address),
            ("[::1]", DnsNameProblem::Shape),
            (long_label.as_str(), DnsNameProblem::Length),
            (long_name.as_str(), DnsNameProblem::Length),
        ] {
            assert_eq!(check(bad), Err(problem), "{bad}");
        }
    }
}
