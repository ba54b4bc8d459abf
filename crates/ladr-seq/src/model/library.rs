//! Memory effects of C library functions without a body in the input: which pointer
//! arguments they read or write through, and how many bytes ([`extent`]). `race`
//! instruments such a call as an access of every byte it covers when that count is a
//! constant (`*(char (*)[n])p`, shadow memory being per byte), of the first and the last
//! byte when it is not (CBMC 6.6 fails an invariant on an object of symbolic size), and of
//! the first byte when ladr does not know it (`strcpy`: up to the source's terminator). It
//! never reports a conflict the call cannot have, except that `snprintf(s, n, …)` counts
//! as writing all `n` bytes it may write.
//!
//! Functions not listed here are treated as not touching memory through their arguments
//! (their arguments themselves are still evaluated and instrumented as reads).

/// How a call uses the object one of its pointer arguments points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Read,
    Write,
}

/// Which arguments an effect applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Args {
    /// The argument at this index.
    At(usize),
    /// This argument and every later one (the pointers after a `scanf` format).
    From(usize),
}

/// The memory effects of library function `name`, if it is one ladr knows.
pub fn effects(name: &str) -> Option<&'static [(Args, Effect)]> {
    use Args::*;
    use Effect::*;
    Some(match name {
        "scanf" | "__isoc99_scanf" => &[(At(0), Read), (From(1), Write)],
        "fscanf" | "__isoc99_fscanf" => &[(At(1), Read), (From(2), Write)],
        "sscanf" | "__isoc99_sscanf" => &[(At(0), Read), (At(1), Read), (From(2), Write)],
        "memset" | "bzero" | "explicit_bzero" => &[(At(0), Write)],
        "memcpy" | "memmove" | "strcpy" | "strncpy" | "stpcpy" => &[(At(0), Write), (At(1), Read)],
        "strcat" | "strncat" => &[(At(0), Write), (At(0), Read), (At(1), Read)],
        "sprintf" | "snprintf" | "vsprintf" | "vsnprintf" => &[(At(0), Write)],
        "fgets" | "gets" => &[(At(0), Write)],
        "fread" => &[(At(0), Write)],
        // The directory stream's entry buffer, which the next `readdir` of the same stream
        // overwrites (glibc: per stream, so two streams never race).
        "readdir" | "readdir64" => &[(At(0), Write)],
        "read" | "recv" | "pread" => &[(At(1), Write)],
        "fwrite" => &[(At(0), Read)],
        "pipe" => &[(At(0), Write)],
        "socketpair" => &[(At(3), Write)],
        // Freeing a block is a write of all of it (TSan, Helgrind and Goblint agree);
        // realloc reads and frees the old block: `race` gives them their own flag
        // ([`frees`]), this entry makes the call visible.
        "free" | "realloc" | "reallocarray" => &[(At(0), Write)],
        "write" | "send" | "pwrite" => &[(At(1), Read)],
        "strlen" | "strnlen" | "strdup" | "strndup" | "atoi" | "atol" | "atoll" | "strtol"
        | "strtoul" | "strtoll" | "strtoull" | "puts" | "strchr" | "strrchr" => &[(At(0), Read)],
        "fputs" => &[(At(0), Read)],
        "strcmp" | "strncmp" | "memcmp" | "strstr" | "strcoll" => &[(At(0), Read), (At(1), Read)],
        "memchr" => &[(At(0), Read)],
        // The plain accesses of the generic atomic builtins (the atomic one of `*p`, their
        // first argument, is [`atomic_builtin`]'s). `__atomic_compare_exchange` writes
        // `*expected` only when it fails: counted as the read it always is.
        "__atomic_load" => &[(At(1), Write)],
        "__atomic_store" => &[(At(1), Read)],
        "__atomic_exchange" => &[(At(1), Read), (At(2), Write)],
        "__atomic_compare_exchange" => &[(At(1), Read), (At(2), Read)],
        "__atomic_compare_exchange_n" => &[(At(1), Read)],
        _ => return None,
    })
}

/// The hidden static state of an MT-Unsafe C library function (POSIX XSH 2.9.1: "need not
/// be thread-safe"): the object a call reads or writes besides its arguments, named by the
/// group of functions that share it, and how the call uses it. `race` instruments such a
/// call, when the program has no body of that name, as an access of that object located at
/// the call ([`ladr_ir::abi::libc_state`]), so two threads calling `strtok` race on
/// `strtok`'s saved position unless something orders them; `getenv` only reads the
/// environment, so two `getenv`s never race, a `getenv` and a `setenv` do.
///
/// Groups follow what glibc shares: `rand`/`srand` one seed, the `*rand48` functions one
/// state, `localtime`/`gmtime` one `struct tm` and `ctime`/`asctime` one buffer (`ctime`
/// calls `localtime`: one group for all four), `getenv`/`setenv`/`putenv`/`unsetenv`/
/// `clearenv` `environ`, the password, group and host databases their static entry.
/// `readdir` is not here: its static data is per directory stream, an effect on its
/// argument ([`effects`]).
pub fn libc_state(name: &str) -> Option<(&'static str, Effect)> {
    use Effect::*;
    Some(match name {
        "strtok" => ("strtok", Write),
        "rand" | "srand" => ("rand", Write),
        "drand48" | "lrand48" | "mrand48" | "srand48" | "seed48" | "lcong48" => ("rand48", Write),
        "localtime" | "gmtime" | "ctime" | "asctime" => ("time", Write),
        "getenv" | "secure_getenv" => ("environ", Read),
        "setenv" | "unsetenv" | "putenv" | "clearenv" => ("environ", Write),
        "strerror" => ("strerror", Write),
        "strsignal" => ("strsignal", Write),
        "ecvt" => ("ecvt", Write),
        "fcvt" => ("fcvt", Write),
        "tmpnam" => ("tmpnam", Write),
        "gethostbyname" | "gethostbyaddr" | "gethostent" => ("hostent", Write),
        "getpwnam" | "getpwuid" | "getpwent" | "setpwent" | "endpwent" => ("passwd", Write),
        "getgrnam" | "getgrgid" | "getgrent" | "setgrent" | "endgrent" => ("group", Write),
        "inet_ntoa" => ("inet_ntoa", Write),
        "getlogin" => ("getlogin", Write),
        "ttyname" => ("ttyname", Write),
        "ptsname" => ("ptsname", Write),
        "crypt" => ("crypt", Write),
        "l64a" => ("l64a", Write),
        "dlerror" => ("dlerror", Write),
        "getdate" => ("getdate", Write),
        "hcreate" | "hsearch" | "hdestroy" => ("hsearch", Write),
        "setlocale" | "localeconv" => ("locale", Write),
        "nl_langinfo" => ("locale", Read),
        "mblen" => ("mblen", Write),
        "mbtowc" => ("mbtowc", Write),
        "wctomb" => ("wctomb", Write),
        _ => return None,
    })
}

/// How many bytes a call accesses through one of its pointer arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// The value of the argument at this index (`memcpy(d, s, n)`: `n`).
    Arg(usize),
    /// The product of two arguments' values (`fwrite(p, size, nmemb, f)`).
    Product(usize, usize),
}

/// How many bytes library function `name` reads or writes through its argument `arg`
/// ([`effects`]), where the call's arguments say it: exactly (`memcpy`, `memset`, `strncpy`'s
/// destination, which it pads, `memcmp`, `write`, `fwrite`) or at most (`snprintf`'s `n`).
/// `None`: only the first byte is known to be accessed (`strcpy`, `fgets`, `read`, …).
pub fn extent(name: &str, arg: usize) -> Option<Extent> {
    use Extent::*;
    Some(match (name, arg) {
        ("memcpy" | "memmove" | "memcmp", 0 | 1) => Arg(2),
        ("memset" | "strncpy", 0) => Arg(2),
        ("bzero" | "explicit_bzero", 0) => Arg(1),
        ("snprintf" | "vsnprintf", 0) => Arg(1),
        ("write" | "send" | "pwrite", 1) => Arg(2),
        ("fwrite", 0) => Product(1, 2),
        _ => return None,
    })
}

/// How a C library allocation function reports that memory ran out (POSIX: `ENOMEM`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocationFailure {
    /// It returns a null pointer.
    Null,
    /// It returns the error number `ENOMEM` and writes nothing (`posix_memalign`).
    ErrorNumber,
}

/// The allocation functions that `--malloc-may-fail` lets fail, and how they fail: every
/// one POSIX says may fail with `ENOMEM` when memory runs out. Without the option none
/// fails (CBMC's models of `valloc`, `posix_memalign` and `strdup` call its `malloc`,
/// which ladr runs without failures; `aligned_alloc`, `memalign` and `reallocarray` are
/// [`allocation_alias`]es).
pub fn allocation_failure(name: &str) -> Option<AllocationFailure> {
    match name {
        "malloc" | "calloc" | "realloc" | "reallocarray" | "aligned_alloc" | "memalign"
        | "valloc" | "strdup" => Some(AllocationFailure::Null),
        "posix_memalign" => Some(AllocationFailure::ErrorNumber),
        _ => None,
    }
}

/// `ENOMEM` (Linux, all architectures): what a failed `posix_memalign` returns.
pub const ENOMEM: u64 = 12;

/// Allocation functions that CBMC 6.6 does not model, as the one that does their job:
/// `aligned_alloc(a, n)` and `memalign(a, n)` are `malloc(n)` (CBMC does not model
/// addresses' alignment), `reallocarray(p, n, s)` is `realloc(p, n * s)` (an overflowing
/// product is not the failure it would be).
pub fn allocation_alias(name: &str) -> Option<&'static str> {
    match name {
        "aligned_alloc" | "memalign" => Some("malloc"),
        "reallocarray" => Some("realloc"),
        _ => None,
    }
}

/// Does `name` free the block its first argument points to?
pub fn frees(name: &str) -> bool {
    matches!(name, "free" | "realloc" | "reallocarray")
}

/// GCC's `__atomic_*` and `__sync_*` builtins (C11's `<stdatomic.h>` operations expand to
/// them): `Some(effect)` on the object their first argument points to, an atomic access,
/// sequentially consistent whatever the memory order argument says; `Some(None)` for
/// fences and lock-freedom queries, which access no object. `None`: not such a builtin.
pub fn atomic_builtin(name: &str) -> Option<Option<Effect>> {
    if !(name.starts_with("__atomic_") || name.starts_with("__sync_")) {
        return None;
    }
    Some(match name {
        "__atomic_thread_fence"
        | "__atomic_signal_fence"
        | "__atomic_always_lock_free"
        | "__atomic_is_lock_free"
        | "__sync_synchronize" => None,
        "__atomic_load" | "__atomic_load_n" => Some(Effect::Read),
        _ => Some(Effect::Write),
    })
}

/// glibc's `errno` is `(*__errno_location ())`: `threads` gives each slot its own int.
pub const ERRNO_LOCATION: &str = "__errno_location";

/// C library functions CBMC 6.6 has no model of that `model/libc.c` defines (as
/// `__ladr_<name>`): `threads` calls the model instead when the program has no body.
pub fn libc_model(name: &str) -> bool {
    matches!(
        name,
        "ffs"
            | "ffsl"
            | "ffsll"
            | "__builtin_parity"
            | "__builtin_parityl"
            | "__builtin_parityll"
            | "pipe"
            | "socketpair"
    )
}

/// The descriptor functions `model/libc.c` defines for its byte channels (pipes, socket
/// pairs): `threads` calls the model instead in programs that make a channel
/// ([`CHANNEL_MAKERS`]).
pub fn channel_io(name: &str) -> bool {
    matches!(name, "read" | "write" | "recv" | "send" | "close")
}

/// The functions that make a byte channel.
pub const CHANNEL_MAKERS: [&str; 2] = ["pipe", "socketpair"];

/// Functions CBMC 6.6.0 has a model of in its own C library (`cbmc_library.txt`).
pub fn cbmc_models(name: &str) -> bool {
    CBMC_LIBRARY
        .lines()
        .any(|l| !l.starts_with('#') && l == name)
}

const CBMC_LIBRARY: &str = include_str!("cbmc_library.txt");

/// C library functions returning `void *` that point into one of their arguments (a found
/// element, a tree node holding the key): their result is not a fresh object, so it stays
/// any value of its type (`threads`' `invented_result`).
pub fn points_into_arguments(name: &str) -> bool {
    const INTO: &[&str] = &[
        "bsearch",
        "lfind",
        "lsearch",
        "tfind",
        "tsearch",
        "tdelete",
        "memrchr",
        "rawmemchr",
        "memmem",
        "memccpy",
        "mempcpy",
    ];
    INTO.contains(&name)
}

/// Does a call of `name`, a function without a body in the program, return a value nobody
/// models (so CBMC makes up any value of its type)? Not for CBMC's library, its builtins
/// (`__CPROVER_*`, `__builtin_*`), ladr's models (pthread, `__ladr_*`, [`libc_model`]),
/// the atomic builtins or SV-COMP's `__VERIFIER_*` (whose nondet values are meant).
pub fn invents_result(name: &str) -> bool {
    const KNOWN: &[&str] = &[
        "__CPROVER_",
        "__VERIFIER_",
        "__builtin_",
        "__atomic_",
        "__sync_",
        "pthread_",
        "sem_",
        ladr_ir::abi::PREFIX,
    ];
    !(KNOWN.iter().any(|p| name.starts_with(p))
        || libc_model(name)
        || name == ERRNO_LOCATION
        || cbmc_models(name))
}

/// The library functions with a model in `model/string.c` (`__ladr_<name>`): those whose
/// CBMC model loops over the characters of a string (or, `memcmp`, over `n` bytes).
pub const STRING_MODELS: &[&str] = &[
    "strlen",
    "memcmp",
    "strcmp",
    "strncmp",
    "strcasecmp",
    "strncasecmp",
    "strcpy",
    "stpcpy",
    "strncpy",
    "strcat",
    "strncat",
    "strchr",
    "strrchr",
    "atoi",
    "atol",
    "atoll",
    "strtol",
    "strtoul",
    "strtoll",
    "strtoull",
    "snprintf",
    "vsnprintf",
    "sprintf",
    "vsprintf",
    "strdup",
    "strndup",
];

/// Does library function `name` return a fresh copy of a string (`model/string.c`'s
/// objects of a constant size: a "heap-size" cut)?
pub fn copies_string(name: &str) -> bool {
    matches!(name, "strdup" | "strndup")
}

/// Is there a model of library function `name` in `model/string.c`?
pub fn has_model(name: &str) -> bool {
    STRING_MODELS.contains(&name)
}

/// The argument indices `a` selects in a call with `n` arguments.
pub fn selected(a: Args, n: usize) -> std::ops::Range<usize> {
    match a {
        Args::At(i) => i..(i + 1).min(n).max(i),
        Args::From(i) => i.min(n)..n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_extent_is_of_an_argument_the_function_accesses() {
        for name in [
            "memcpy", "memmove", "memcmp", "memset", "strncpy", "bzero", "snprintf",
        ] {
            let e = effects(name).unwrap();
            for (sel, _) in e {
                for arg in selected(*sel, 4) {
                    if let Some(Extent::Arg(n)) = extent(name, arg) {
                        assert!(n > arg, "{name}: the size comes after the pointer");
                    }
                }
            }
        }
        assert_eq!(extent("strcpy", 0), None);
    }

    #[test]
    fn scanf_writes_every_pointer_after_the_format() {
        let e = effects("scanf").unwrap();
        assert_eq!(e[1], (Args::From(1), Effect::Write));
        assert_eq!(selected(Args::From(1), 3), 1..3);
        assert_eq!(selected(Args::At(1), 3), 1..2);
        assert_eq!(selected(Args::At(3), 2), 3..3);
        assert!(effects("printf").is_none());
    }

    #[test]
    fn mt_unsafe_functions_share_their_group_state() {
        assert_eq!(libc_state("strtok"), Some(("strtok", Effect::Write)));
        assert_eq!(libc_state("srand"), libc_state("rand"));
        assert_eq!(libc_state("gmtime"), libc_state("asctime"));
        assert_eq!(libc_state("getenv"), Some(("environ", Effect::Read)));
        assert_eq!(libc_state("setenv"), Some(("environ", Effect::Write)));
        for reentrant in ["strtok_r", "rand_r", "localtime_r", "getenv_r", "memcpy"] {
            assert_eq!(libc_state(reentrant), None, "{reentrant}");
        }
        let name = ladr_ir::abi::libc_state("strtok");
        assert_eq!(ladr_ir::abi::libc_state_group(&name), Some("strtok"));
    }

    #[test]
    fn cbmc_library_and_models() {
        assert!(cbmc_models("strlen") && cbmc_models("abs") && !cbmc_models("ffs"));
        assert!(!cbmc_models(
            "# Functions CBMC 6.6.0 links a body for from its own C library (the"
        ));
        assert!(invents_result("foo") && !invents_result("ffs") && !invents_result("strlen"));
        assert!(!invents_result("__VERIFIER_nondet_int") && !invents_result("pthread_self"));
    }
}
