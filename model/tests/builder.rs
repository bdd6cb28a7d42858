//! The program builder refuses what the trace parser refuses, with the same
//! words: bad and duplicate names, ids from another program, reversed
//! ranges, blobs from non-pools, bad kernel names. One row per refusal,
//! through one helper that builds a small program and applies the call.

use vksync::{Binding, BindingAccess, ByteRange, Command, Location, ObjectId, Program, ProgramError, Region};

/// A program with a buffer `a` (id 0, 64 bytes) and a pool `p` (id 1).
fn base() -> Program {
    let mut p = Program::new();
    p.buffer("a", 64).unwrap();
    p.pool("p", 256, 16).unwrap();
    p
}

type Call = fn(&mut Program) -> Result<(), ProgramError>;

fn region(object: u32, start: u64, end: u64) -> Region {
    Region {
        object: ObjectId(object),
        range: ByteRange { start, end },
    }
}

#[test]
fn bad_calls_are_refused_with_the_parsers_words() {
    let cases: &[(&str, Call, Location, &str)] = &[
        (
            "name with a space",
            |p| p.buffer("my buf", 16).map(drop),
            Location::Object(ObjectId(2)),
            "invalid name `my buf`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`",
        ),
        (
            "name with a newline",
            |p| p.buffer("b\nbuffer c 16", 16).map(drop),
            Location::Object(ObjectId(2)),
            "invalid name `b\nbuffer c 16`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`",
        ),
        (
            "empty name",
            |p| p.pool("", 16, 16).map(drop),
            Location::Object(ObjectId(2)),
            "invalid name ``: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`",
        ),
        (
            "duplicate name",
            |p| p.buffer("a", 16).map(drop),
            Location::Object(ObjectId(2)),
            "`a` is already declared",
        ),
        (
            "alias of a foreign id",
            |p| p.alias("c", 16, ObjectId(7), 0).map(drop),
            Location::Object(ObjectId(2)),
            "object id 7 is not one of this program's (2 objects)",
        ),
        (
            "blob of a buffer",
            |p| p.alloc("x", 16, ObjectId(0)).map(drop),
            Location::Object(ObjectId(2)),
            "`a` is not a pool, so blobs cannot be allocated from it",
        ),
        (
            "command on a foreign id",
            |p| p.push(Command::Fill { dst: region(9, 0, 16), value: 0 }).map(drop),
            Location::Command(0),
            "object id 9 is not one of this program's (2 objects)",
        ),
        (
            "reversed range",
            |p| p.push(Command::Fill { dst: region(0, 32, 16), value: 0 }).map(drop),
            Location::Command(0),
            "range 32..16 ends before it starts",
        ),
        (
            "free of a buffer",
            |p| p.push(Command::Free { blob: ObjectId(0) }).map(drop),
            Location::Command(0),
            "`a` is not a blob, so it cannot be allocated or freed",
        ),
        (
            "kernel named like a binding keyword",
            |p| {
                p.push(Command::Dispatch {
                    kernel: "rw".into(),
                    params: vec![],
                    bindings: vec![Binding {
                        access: BindingAccess::Read,
                        region: region(0, 0, 16),
                    }],
                    indirect: None,
                })
                .map(drop)
            },
            Location::Command(0),
            "invalid kernel name `rw`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`, and not `read`, `write`, `rw` or `indirect`",
        ),
        (
            "empty kernel name",
            |p| {
                p.push(Command::Dispatch {
                    kernel: String::new(),
                    params: vec![],
                    bindings: vec![],
                    indirect: None,
                })
                .map(drop)
            },
            Location::Command(0),
            "invalid kernel name ``: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`, and not `read`, `write`, `rw` or `indirect`",
        ),
        (
            "dispatch without bindings",
            |p| {
                p.push(Command::Dispatch {
                    kernel: "k".into(),
                    params: vec![],
                    bindings: vec![],
                    indirect: None,
                })
                .map(drop)
            },
            Location::Command(0),
            "dispatch has no storage binding",
        ),
        (
            "barrier with a bit vksync has no name for",
            |p| {
                p.push(Command::Barrier(vksync::Dependency {
                    barriers: vec![vksync::Barrier::global(
                        vksync::PipelineStageFlags2::COPY | vksync::PipelineStageFlags2::from_bits_retain(0x20_0000),
                        vksync::AccessFlags2::NONE,
                        vksync::PipelineStageFlags2::COPY,
                        vksync::AccessFlags2::NONE,
                    )],
                }))
                .map(drop)
            },
            Location::Command(0),
            "barrier 0: flag bits 0x200000 have no name in vksync (stages and accesses of the model only)",
        ),
        (
            "layout transition without a region (the second barrier of the call)",
            |p| {
                let b = vksync::Barrier::global(
                    vksync::PipelineStageFlags2::COPY,
                    vksync::AccessFlags2::NONE,
                    vksync::PipelineStageFlags2::COPY,
                    vksync::AccessFlags2::NONE,
                );
                p.push(Command::Barrier(vksync::Dependency {
                    barriers: vec![b.on(region(0, 0, 64)).with_transition(), b.with_transition()],
                }))
                .map(drop)
            },
            Location::Command(0),
            "barrier 1: a layout transition needs a region (the image's memory)",
        ),
        (
            "layout transition without a region, as a literal",
            |p| {
                let b = vksync::Barrier {
                    transition: true,
                    ..Default::default()
                };
                p.push(Command::Barrier(vksync::Dependency { barriers: vec![b] }))
                    .map(drop)
            },
            Location::Command(0),
            "barrier 0: a layout transition needs a region (the image's memory)",
        ),
        (
            "replace past the end",
            |p| p.replace(3, Command::SUBMIT).map(drop),
            Location::Command(3),
            "there is no command 3 (the program has 0)",
        ),
    ];
    for (what, call, at, message) in cases {
        let mut p = base();
        let before = p.clone();
        let e = call(&mut p).expect_err(what);
        assert_eq!((e.at, e.kind.to_string().as_str()), (*at, *message), "{what}");
        assert_eq!(p, before, "{what}: a refused call changes nothing");
    }
}

/// The parser refuses the same names with the same words (placed on a line
/// and column).
#[test]
fn the_parser_uses_the_same_words() {
    let cases = [
        ("buffer a 16\nbuffer a 16\n", "2:8: `a` is already declared"),
        (
            "buffer 1a 16\n",
            "1:8: invalid name `1a`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`",
        ),
        (
            "buffer a 16\nfill a[32..16] 0\n",
            "2:8: range 32..16 ends before it starts",
        ),
    ];
    for (text, expected) in cases {
        let e = vksync::trace::parse(text).unwrap_err();
        assert_eq!(e.to_string(), expected);
    }
    let mut p = Program::new();
    assert_eq!(
        p.buffer("1a", 16).unwrap_err().kind.to_string(),
        "invalid name `1a`: use letters, digits, `_`, `-` and `.`, starting with a letter or `_`"
    );
}

/// `from_parts` checks everything `declare` and `push` check, and the order
/// the trace format needs (a blob declared by its `alloc`).
#[test]
fn from_parts_checks_every_part() {
    let ok = base();
    let rebuilt = Program::from_parts(ok.objects().to_vec(), ok.commands().to_vec()).unwrap();
    assert_eq!(rebuilt, ok);
    let mut objects = ok.objects().to_vec();
    objects.push(objects[0].clone());
    let e = Program::from_parts(objects, vec![]).unwrap_err();
    assert_eq!(e.kind.to_string(), "`a` is already declared");
    // Shown alone, the error says where: the parser and the CLI put it on
    // a line instead.
    assert_eq!(e.to_string(), "object 2: `a` is already declared");
    let e =
        Program::from_parts(ok.objects().to_vec(), vec![Command::Free { blob: ObjectId(5) }]).unwrap_err();
    assert_eq!(e.at, Location::Command(0));
    // pool p, blob x (id 2), buffer y (id 3): y is used before x's alloc.
    let mut q = base();
    let x = q.alloc("x", 16, ObjectId(1)).unwrap();
    let y = q.buffer("y", 16).unwrap();
    q.push(Command::Fill {
        dst: q.whole(y),
        value: 1,
    })
    .unwrap();
    let objects = q.objects().to_vec();
    let fill_first = vec![
        Command::Fill {
            dst: q.whole(y),
            value: 1,
        },
        Command::Alloc { blob: x },
    ];
    let e = Program::from_parts(objects.clone(), fill_first).unwrap_err();
    assert_eq!(
        e.kind.to_string(),
        "`y` is used before it is declared: objects are declared in id order, and a blob before it is allocated only later"
    );
    let e = Program::from_parts(objects.clone(), vec![]).unwrap_err();
    assert_eq!(
        e.kind.to_string(),
        "blob `x` is never allocated (a blob is declared by its `alloc`)"
    );
    let twice = vec![Command::Alloc { blob: x }, Command::Alloc { blob: x }];
    let e = Program::from_parts(objects, twice).unwrap_err();
    assert_eq!(
        e.kind.to_string(),
        "`x` is allocated twice; give each allocation its own name"
    );
    // Declaring a blob without its alloc is refused.
    let blob = vksync::Object {
        name: "z".into(),
        size: 16,
        kind: vksync::ObjectKind::Blob { pool: ObjectId(1) },
        sharing: vksync::SharingMode::Concurrent,
    };
    assert_eq!(
        base().declare(blob).unwrap_err().kind.to_string(),
        "`z` is a blob: declare it with `alloc`, which also allocates it"
    );
}

/// A blob's `alloc` is its declaration: removing or replacing it is
/// refused and changes nothing.
#[test]
fn allocs_cannot_be_removed() {
    let calls: &[(&str, Call)] = &[
        ("truncate", |p| p.truncate(0)),
        ("replace", |p| p.replace(0, Command::SUBMIT).map(drop)),
    ];
    for (what, call) in calls {
        let mut p = base();
        p.alloc("x", 16, ObjectId(1)).unwrap();
        let before = p.clone();
        let e = call(&mut p).expect_err(what);
        assert_eq!(
            (e.at, e.kind.to_string().as_str()),
            (
                Location::Command(0),
                "`alloc` of `x` is its declaration: it cannot be removed or replaced"
            ),
            "{what}"
        );
        assert_eq!(p, before, "{what}: a refused call changes nothing");
    }
}
