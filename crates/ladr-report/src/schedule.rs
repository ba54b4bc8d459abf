//! What `--deepen`, `--jobs` and `--swarm` add to an answer: the bound pairs of the
//! deepening schedule and what each gave (a line of text, a `deepening` object in JSON), so
//! every answer states the bounds it reached; and the per-instance summary of
//! `ladr swarm collect` (a `swarm` object in JSON).

use ladr_check::Word;
use ladr_check::{Deepening, StepState};
use serde::{Deserialize, Serialize};

/// The schedule as a line of text, when there is more to say than the report's own bounds
/// (several bound pairs, or swarm instances): `bounds (rounds/unwinding): 2/2 no race,
/// 3/2 race, 3/3 unfinished (…), 3/4 unfinished (the same); not started: …`.
pub fn bounds_line(d: &Deepening) -> Option<String> {
    if d.steps.len() <= 1 && d.instances.iter().all(|&n| n <= 1) && !d.probe {
        return None;
    }
    let pair = |(r, u): (u32, u32)| format!("{r}/{u}");
    let mut parts = vec![];
    let mut not_started = vec![];
    // The reason of the last unfinished pair: a pair that ends alike says so in a word (a
    // CBMC crash at every pair would repeat a long message).
    let mut last_why: Option<&str> = None;
    for (k, (((r, u), state), &n)) in d.steps.iter().zip(&d.instances).enumerate() {
        let what = match state {
            StepState::NoRace => "no race".to_string(),
            StepState::Race => "race".to_string(),
            StepState::Unfinished(why) if last_why == Some(why.as_str()) => {
                "unfinished (the same)".to_string()
            }
            StepState::Unfinished(why) => {
                last_why = Some(why);
                format!("unfinished ({why})")
            }
            StepState::NotStarted => {
                not_started.push(pair((*r, *u)));
                continue;
            }
        };
        let split = if n > 1 {
            format!(" [{n} instances]")
        } else {
            String::new()
        };
        let probe = if d.probe && *state == StepState::Race {
            format!(" (probe: loops of a constant bound cut after {u} iterations)")
        } else {
            String::new()
        };
        let same = match d.same_as.get(k).copied().flatten() {
            Some(earlier) => format!(" (the program of {})", pair(earlier)),
            None => String::new(),
        };
        parts.push(format!("{} {what}{split}{probe}{same}", pair((*r, *u))));
    }
    let race = d.steps.iter().any(|(_, s)| *s == StepState::Race);
    if let (true, false, Some(((r, u), _))) = (d.probe, race, d.steps.first()) {
        parts.insert(
            0,
            format!(
                "{r}/{u} no race with loops of a constant bound cut after {u} iterations (probe)"
            ),
        );
    }
    let mut line = format!("bounds (rounds/unwindings): {}", parts.join(", "));
    if !not_started.is_empty() {
        line.push_str(&format!("; not started: {}", not_started.join(", ")));
    }
    if let (false, p @ 1..) = (race, d.prefix()) {
        line.push_str(&format!(
            "; every bound pair up to {} finished",
            pair(d.steps[p - 1].0)
        ));
    }
    Some(line)
}

/// The deepening schedule in JSON: `schedule` (each bound pair: `rounds`, `unwind`,
/// `state` — `no-race`, `race`, `unfinished` with `reason`, `not-started` —,
/// `instances`, `done_s`, the seconds until its answer where known, and `same_as`, the
/// earlier pair whose program it is), `finished` (the pairs that finished "no race"),
/// `prefix` (how many leading
/// pairs of the schedule all finished "no race") and `probe` (the answer is the
/// constant-loop probe's: a race, or the "no race" given when the first pair gave none).
/// Fields in alphabetical order, as the document always printed them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DeepeningDoc {
    pub finished: Vec<[u32; 2]>,
    pub prefix: usize,
    pub probe: bool,
    pub schedule: Vec<BoundPairDoc>,
}

/// One bound pair of [`DeepeningDoc::schedule`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoundPairDoc {
    /// Seconds from the start of the check (parsing included) until the pair's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub done_s: Option<f64>,
    pub instances: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub rounds: u32,
    /// The earlier pair whose sequential program this pair's is, byte for byte: its answer
    /// is that pair's, and CBMC did not check it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<[u32; 2]>,
    pub state: Word,
    pub unwind: u32,
}

impl DeepeningDoc {
    /// The document of `d`, its times counted from `started` (the check's start).
    pub fn of(d: &Deepening, started: std::time::Instant) -> DeepeningDoc {
        let schedule = d
            .steps
            .iter()
            .zip(&d.instances)
            .enumerate()
            .map(|(k, (((rounds, unwind), state), &instances))| {
                let (state, reason) = match state {
                    StepState::NoRace => ("no-race", None),
                    StepState::Race => ("race", None),
                    StepState::Unfinished(why) => ("unfinished", Some(why.clone())),
                    StepState::NotStarted => ("not-started", None),
                };
                let done_s = d.done_at.get(k).copied().flatten().map(|t| {
                    let s = t.saturating_duration_since(started).as_secs_f64();
                    (s * 10.0).round() / 10.0
                });
                BoundPairDoc {
                    done_s,
                    instances,
                    reason,
                    rounds: *rounds,
                    same_as: d.same_as.get(k).copied().flatten().map(|(r, u)| [r, u]),
                    state: state.into(),
                    unwind: *unwind,
                }
            })
            .collect();
        DeepeningDoc {
            finished: d.finished().iter().map(|&(r, u)| [r, u]).collect(),
            prefix: d.prefix(),
            probe: d.probe,
            schedule,
        }
    }
}

/// What each swarm instance gave (`ladr swarm collect`): the instances that found a race,
/// answered "no race", gave no answer. Fields in alphabetical order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SwarmDoc {
    pub instances: usize,
    pub no_race: Vec<usize>,
    pub race: Vec<usize>,
    pub unknown: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_written_once_for_pairs_that_end_alike() {
        let crash = || StepState::Unfinished("CBMC crashed: a long message".into());
        let d = Deepening {
            steps: vec![
                ((2, 2), StepState::NoRace),
                ((3, 2), crash()),
                ((3, 3), crash()),
                ((3, 4), StepState::Unfinished("CBMC ran out of time".into())),
                ((4, 2), StepState::NotStarted),
            ],
            instances: vec![1; 5],
            probe: false,
            done_at: vec![],
            same_as: vec![None, None, Some((3, 2))],
        };
        assert_eq!(
            bounds_line(&d).unwrap(),
            "bounds (rounds/unwindings): 2/2 no race, 3/2 unfinished (CBMC crashed: a long \
             message), 3/3 unfinished (the same) (the program of 3/2), 3/4 unfinished (CBMC \
             ran out of time); not started: 4/2; every bound pair up to 2/2 finished"
        );
        let doc = DeepeningDoc::of(&d, std::time::Instant::now());
        let same: Vec<Option<[u32; 2]>> = doc.schedule.iter().map(|p| p.same_as).collect();
        assert_eq!(same, [None, None, Some([3, 2]), None, None]);
    }

    #[test]
    fn each_pair_states_when_it_answered_where_known() {
        let start = std::time::Instant::now();
        let d = Deepening {
            steps: vec![
                ((2, 2), StepState::NoRace),
                ((3, 2), StepState::Race),
                ((3, 3), StepState::NotStarted),
            ],
            instances: vec![1; 3],
            probe: false,
            done_at: vec![Some(start + std::time::Duration::from_millis(1540)), None],
            same_as: vec![],
        };
        let doc = DeepeningDoc::of(&d, start);
        let done: Vec<Option<f64>> = doc.schedule.iter().map(|p| p.done_s).collect();
        assert_eq!(done, [Some(1.5), None, None]);
        let json = serde_json::to_value(&doc.schedule[0]).unwrap();
        assert_eq!(json["done_s"], 1.5);
        assert!(serde_json::to_value(&doc.schedule[1])
            .unwrap()
            .get("done_s")
            .is_none());
    }
}
