//! The wallet gateway against real HTTP servers on port 0 (`opinion_testkit::ScriptedServer`):
//! every kind of answer, every way a call can fail, and what each is reported as.

mod answers;
mod balance;
mod production;
mod signatures;
mod support;
mod transport;
