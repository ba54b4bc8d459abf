//! Syntax trees are deep and large: the stack of a thread that parses, translates, prints
//! or checks a program ([`STACK`]), and freeing trees off an answer's path
//! ([`drop_in_background`]).

/// The stack of a thread that translates, prints or checks a program: deeply nested
/// programs (a 10 000-term expression, thousands of unwound statements) recurse deeply in
/// the parser, the passes and the printer.
pub const STACK: usize = 256 << 20;

/// Frees `x` on a thread of its own, so that an answer does not wait for it: the programs
/// and reports of a check are gigabytes of syntax trees on large programs, and freeing them
/// took longer than the watchdog of `ladr FILE` allows after the time limit (spmc.c and
/// channel.c of sysprog21/concurrent-programs at `--timeout 60`: "the time limit was
/// reached" instead of, or after, the answer). With no thread to be had, `spawn` frees it
/// here.
pub fn drop_in_background<T: Send + 'static>(x: T) {
    let _ = std::thread::Builder::new()
        .name("free".into())
        .spawn(move || drop(x));
}
