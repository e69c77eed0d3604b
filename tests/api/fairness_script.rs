//! The operator's fairness verification script (`docs/flight/verify_flight.py`), run as an
//! operator runs it: it must accept the published test vectors and a chain derived by the
//! game's own rules, and name every flight whose seed or crash point was tampered with.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use opinion_flight::{ChainLength, Salt, Seed, commitment, crash_instant_ms, crash_point, seed_of_flight};
use serde_json::{Value, json};

/// Runs `python3 docs/flight/verify_flight.py <args>` with `stdin` as its input. A
/// machine without `python3` fails the test: the script is part of what is published.
pub fn run_verifier(args: &[&str], stdin: &str) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/flight/verify_flight.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            panic!(
                "python3 is needed to run {} ({error}): install Python 3",
                script.display()
            )
        });
    let mut input = child.stdin.take().expect("the script's stdin");
    input.write_all(stdin.as_bytes()).expect("wrote the script's input");
    drop(input);
    child.wait_with_output().expect("the script ran")
}

/// The script's stdout, after checking its exit status is `success`.
fn stdout_of(output: &Output, success: bool) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        output.status.success(),
        success,
        "exit status {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

const LENGTH: u32 = 25;
const SALT: &str = "fairness-script-salt-0001";

/// A chain of 25 flights, derived with the game's rules from a fixed terminal seed.
struct Chain {
    terminal: Seed,
    length: ChainLength,
    salt: Salt,
}

impl Chain {
    fn new() -> Self {
        Self {
            terminal: Seed::from_bytes(*b"fairness script's terminal seed!"),
            length: ChainLength::new(LENGTH).expect("a chain length"),
            salt: Salt::new(SALT).expect("a salt"),
        }
    }

    fn commitment(&self) -> String {
        commitment(&self.terminal, self.length).to_hex()
    }

    fn seed(&self, number: u32) -> Seed {
        seed_of_flight(&self.terminal, self.length, number).expect("a flight of the chain")
    }

    /// Flight `number` as the published document lists it.
    fn flight(&self, number: u32) -> Value {
        let seed = self.seed(number);
        json!({"number": number, "seed": seed.to_hex(), "crashPoint": crash_point(&seed, &self.salt).to_string()})
    }

    /// The published document with these flights, in this order.
    fn document(&self, numbers: &[u32]) -> Value {
        json!({
            "commitment": self.commitment(),
            "salt": SALT,
            "flights": numbers.iter().map(|&number| self.flight(number)).collect::<Vec<_>>(),
        })
    }

    /// The script's line for flight `number` when it verifies: the crash instant is the
    /// game's own, so the script's curve agrees with the server's to the millisecond.
    fn ok_line(&self, number: u32) -> String {
        let crash = crash_point(&self.seed(number), &self.salt);
        format!(
            "OK   flight {number}: seed links to the commitment, crash point {crash}, crash instant {} ms after take-off",
            crash_instant_ms(crash)
        )
    }

    /// The script's whole output when flights `numbers` all verify.
    fn all_ok(&self, numbers: impl IntoIterator<Item = u32>) -> String {
        numbers.into_iter().map(|number| self.ok_line(number) + "\n").collect()
    }
}

/// Flights 1 to 25, shuffled: k · 7 mod 25 visits every residue once.
fn shuffled() -> Vec<u32> {
    (1..=LENGTH).map(|k| k * 7 % LENGTH + 1).collect()
}

#[test]
fn the_script_checks_the_published_test_vectors() {
    let stdout = stdout_of(&run_verifier(&["--vectors"], ""), true);
    assert_eq!(
        stdout.lines().filter(|line| line.starts_with("OK   ")).count(),
        19,
        "{stdout}"
    );
    for expected in [
        "OK   commitment: 22c234efc896eda3072ad7ef234c8a9e6d79209317d8602b456bbabfd0bdf7d7",
        "OK   flight 8 crash point: 418.12",
        "OK   flight 1 crash instant (ms): 20688",
        "OK   m(60000): 3659",
    ] {
        assert!(
            stdout.lines().any(|line| line == expected),
            "{expected} missing:\n{stdout}"
        );
    }
}

#[test]
fn a_chain_played_by_the_games_rules_verifies_in_any_order() {
    let chain = Chain::new();
    let numbers = shuffled();
    assert_eq!(numbers.len(), 25);
    let document = chain.document(&numbers).to_string();
    let stdout = stdout_of(&run_verifier(&[], &document), true);
    assert_eq!(stdout, chain.all_ok(1..=LENGTH));
}

#[test]
fn a_run_not_starting_at_flight_one_and_with_gaps_verifies() {
    let chain = Chain::new();
    let numbers = [21, 9, 25, 14, 10, 17];
    let stdout = stdout_of(&run_verifier(&[], &chain.document(&numbers).to_string()), true);
    assert_eq!(stdout, chain.all_ok([9, 10, 14, 17, 21, 25]));
}

#[test]
fn flights_as_the_operator_api_returns_them_verify_piped_in_and_pinned() {
    let chain = Chain::new();
    let lines: String = shuffled()
        .into_iter()
        .map(|number| {
            let mut flight = chain.flight(number);
            flight["id"] = json!(format!("flt_{number:026}"));
            flight["chainId"] = json!("fch_01jdz3qv6mz8x5c0a2t5d4e7h0");
            flight["commitment"] = json!(chain.commitment());
            flight["salt"] = json!(SALT);
            flight["takeOffAt"] = json!("2026-11-22T10:20:05Z");
            flight.to_string() + "\n"
        })
        .collect();
    let waiting =
        json!({"number": LENGTH + 1, "seed": null, "crashPoint": null, "commitment": chain.commitment(), "salt": SALT});
    let input = format!("{lines}{waiting}\n");
    let pinned = ["--commitment", &chain.commitment(), "--salt", SALT];
    let stdout = stdout_of(&run_verifier(&pinned, &input), true);
    let skipped = format!(
        "SKIP flight {}: nothing revealed (the flight has not crashed)\n",
        LENGTH + 1
    );
    assert_eq!(stdout, skipped + &chain.all_ok(1..=LENGTH));

    let stdout = stdout_of(&run_verifier(&["--salt", "another-salt"], &input), false);
    assert!(
        stdout.contains("FAIL flight 1: its salt is not the published \"another-salt\""),
        "{stdout}"
    );
}

#[test]
fn a_tampered_seed_and_a_tampered_crash_point_fail_naming_their_flights() {
    let chain = Chain::new();
    let mut document = chain.document(&shuffled());
    let flights = document["flights"].as_array_mut().expect("flights");
    let position = |flights: &[Value], number: u32| {
        flights
            .iter()
            .position(|flight| flight["number"] == number)
            .expect("listed")
    };
    let forged_seed = position(flights, 12);
    flights[forged_seed]["seed"] = json!(Seed::from_bytes([0x42; 32]).to_hex());
    let forged_crash = position(flights, 18);
    let published = crash_point(&chain.seed(18), &chain.salt);
    flights[forged_crash]["crashPoint"] = json!(format!(
        "{}.{:02}",
        published.hundredths() / 100 + 1,
        published.hundredths() % 100
    ));

    let stdout = stdout_of(&run_verifier(&[], &document.to_string()), false);
    let failed: Vec<&str> = stdout.lines().filter(|line| line.starts_with("FAIL")).collect();
    assert_eq!(failed.len(), 2, "{stdout}");
    assert!(
        failed[0].starts_with("FAIL flight 12: its seed does not hash down to the seed of flight 11"),
        "{stdout}"
    );
    assert!(
        failed[1].starts_with(&format!(
            "FAIL flight 18: crashPoint {}.",
            published.hundredths() / 100 + 1
        )),
        "{stdout}"
    );
    let verified: Vec<u32> = (1..=LENGTH).filter(|number| ![12, 18].contains(number)).collect();
    for number in verified {
        assert!(
            stdout.contains(&(chain.ok_line(number) + "\n")),
            "flight {number}:\n{stdout}"
        );
    }
}
