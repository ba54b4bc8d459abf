//! Baselines: the races of an earlier run, by fingerprint, so that only new races fail.
//!
//! A baseline is any document ladr wrote: the JSON or SARIF of `ladr check`, or the JSON
//! or SARIF of one `ladr FILE` run. A race of the new run whose fingerprint is in the
//! baseline is *unchanged*, one that is not is *new*, and a baseline race the new run did
//! not find is *absent*. Results a SARIF baseline itself marks `absent` are not carried
//! over.

use ladr_c::diag::{Error, ErrorKind, Result};
use serde_json::Value;
use std::path::Path;

/// A race of the baseline: its message at most [`MAX_MESSAGE`] characters, without control
/// characters.
pub use ladr_report::gate::Known;

/// The longest message of a baseline race kept (a baseline may come from anyone).
pub const MAX_MESSAGE: usize = 1000;

/// A baseline race as ladr repeats it: the fingerprint if it is one ladr could have written
/// (hexadecimal, at most 64 digits), the message bounded and without control characters.
/// Nothing else of the baseline is kept: a hostile SARIF baseline's locations
/// (`file:///etc/shadow`) and other fields were copied into the output (issue 28).
fn known(fingerprint: &str, message: &str) -> Option<Known> {
    let hex = !fingerprint.is_empty()
        && fingerprint.len() <= 64
        && fingerprint.bytes().all(|b| b.is_ascii_hexdigit());
    hex.then(|| Known {
        fingerprint: fingerprint.to_string(),
        message: message
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_MESSAGE)
            .collect(),
    })
}

/// Reads the fingerprints of a baseline file.
pub fn load(path: &Path) -> Result<Vec<Known>> {
    let usage = |m: String| Error::new(ErrorKind::Usage, m);
    let text = std::fs::read_to_string(path).map_err(|e| {
        usage(format!(
            "cannot read the baseline `{}`: {e}",
            path.display()
        ))
    })?;
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        usage(format!(
            "the baseline `{}` is not a ladr JSON or SARIF document: {e}",
            path.display()
        ))
    })?;
    parse(&v).ok_or_else(|| {
        usage(format!(
            "the baseline `{}` is not a ladr JSON or SARIF document (no `runs`, `races` or \
             `harnesses`)",
            path.display()
        ))
    })
}

/// The races of a baseline document, or `None` for a document of another kind.
pub fn parse(v: &Value) -> Option<Vec<Known>> {
    let mut out = vec![];
    if let Some(runs) = v.get("runs").and_then(Value::as_array) {
        for r in runs
            .iter()
            .filter_map(|r| r.get("results")?.as_array())
            .flatten()
        {
            if r.get("baselineState").and_then(Value::as_str) == Some("absent") {
                continue;
            }
            let Some(fp) = r
                .get("partialFingerprints")
                .and_then(|p| p.get(ladr_report::sarif::FINGERPRINT_KEY))
                .and_then(Value::as_str)
            else {
                continue;
            };
            out.extend(known(fp, r["message"]["text"].as_str().unwrap_or_default()));
        }
        return Some(out);
    }
    let outcomes: Vec<&Value> = if let Some(hs) = v.get("harnesses").and_then(Value::as_array) {
        hs.iter().filter_map(|h| h.get("outcome")).collect()
    } else if v.get("races").is_some() {
        vec![v]
    } else {
        return None;
    };
    for o in outcomes {
        for r in o
            .get("races")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(fp) = r.get("fingerprint").and_then(Value::as_str) {
                out.extend(known(
                    fp,
                    r.get("message").and_then(Value::as_str).unwrap_or_default(),
                ));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_sarif_and_json_baselines() {
        let sarif = json!({"runs": [{"results": [
            {"message": {"text": "a"}, "partialFingerprints": {"ladrRace/v1": "1"}},
            {"message": {"text": "b"}, "partialFingerprints": {"ladrRace/v1": "2"}, "baselineState": "absent"}
        ]}]});
        let k = parse(&sarif).unwrap();
        assert_eq!(k.len(), 1);
        assert_eq!(
            (k[0].fingerprint.as_str(), k[0].message.as_str()),
            ("1", "a")
        );
        let check =
            json!({"harnesses": [{"outcome": {"races": [{"fingerprint": "3", "message": "c"}]}}]});
        assert_eq!(parse(&check).unwrap()[0].fingerprint, "3");
        let single = json!({"verdict": "race", "races": [{"fingerprint": "4"}]});
        assert_eq!(parse(&single).unwrap()[0].fingerprint, "4");
        assert!(parse(&json!({"x": 1})).is_none());
    }
}
