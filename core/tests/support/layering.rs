//! The layer check of a crate's modules, as a plain test reads them: the `crate::<module>` paths
//! written in each top-level module's files, against a declared order of layers. No parser, no
//! tool: a lower layer that names a higher one fails with the edge and the line that makes it.
//!
//! Counted: every `crate::x` path (and each `x` of `crate::{x, y::z}`) in the code of a file of
//! top-level module `m`, where `x` is a top-level module; an edge `m → x`. Also the paths that
//! reach the same places another way: a `super::` chain that climbs to the crate root (`super::x`
//! in `m/mod.rs`, `super::super::x` in `m/n.rs`) is read as `crate::x`; a name the crate root
//! re-exports (`crate::Category`, from `pub use categorise::Category`) is an edge to the module
//! it comes from; and a name the crate root defines itself (`crate::score`) is an edge to
//! [`ROOT`], above every layer. Not counted: comment lines, `#[cfg(test)]` items, files named
//! `tests.rs`, and the crate root (`lib.rs`, `main.rs`) itself, whose `pub use`s are the
//! crate's surface, not a layer. Shared with other crates' tests through `#[path]` (e.g.
//! `server/tests/layers.rs` can include this file).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// An edge `from → to` and where it is written (`path:line`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The top-level module whose file names the other.
    pub from: String,
    /// The top-level module named.
    pub to: String,
    /// `file:line` of the first place the edge is written.
    pub at: String,
}

/// Every edge between top-level modules of the crate whose sources are under `src` (a crate's
/// `src` folder), one per pair, with the first place each is written.
///
/// # Errors
/// The I/O error of a file or folder that cannot be read.
pub fn edges(src: &Path) -> std::io::Result<Vec<Edge>> {
    let modules = top_level_modules(src)?;
    let root = root_names(src)?;
    let mut found: BTreeMap<(String, String), String> = BTreeMap::new();
    for (module, files) in &modules {
        for file in files {
            let text = std::fs::read_to_string(file)?;
            let depth = module_depth(src, file);
            let lines: Vec<(usize, String)> = code_lines(&text)
                .into_iter()
                .map(|(n, line)| (n, climbing_to_crate(line, depth)))
                .collect();
            let borrowed: Vec<(usize, &str)> =
                lines.iter().map(|(n, l)| (*n, l.as_str())).collect();
            for (line, name) in crate_paths(&borrowed) {
                let to = if modules.contains_key(&name) {
                    name
                } else if let Some(from) = root.get(&name) {
                    from.clone()
                } else {
                    continue;
                };
                if &to != module {
                    let at = format!("{}:{line}", file.display());
                    found.entry((module.clone(), to)).or_insert(at);
                }
            }
        }
    }
    Ok(found
        .into_iter()
        .map(|((from, to), at)| Edge { from, to, at })
        .collect())
}

/// The edges that break `layers` (bottom first; a module may name only modules of lower
/// layers), and every top-level module no layer lists, as messages.
///
/// # Errors
/// Those of [`edges`].
pub fn violations(src: &Path, layers: &[&[&str]]) -> std::io::Result<Vec<String>> {
    let layer_of = |module: &str| {
        if module == ROOT {
            Some(layers.len())
        } else {
            layers.iter().position(|layer| layer.contains(&module))
        }
    };
    let mut problems = Vec::new();
    for module in top_level_modules(src)?.keys() {
        if layer_of(module).is_none() {
            problems.push(format!(
                "module `{module}` is in no layer: add it to the order"
            ));
        }
    }
    for edge in edges(src)? {
        let (Some(from), Some(to)) = (layer_of(&edge.from), layer_of(&edge.to)) else {
            continue;
        };
        if to >= from {
            problems.push(format!(
                "`{}` (layer {from}) names `{}` (layer {to}) at {}: a module may name only \
                 modules of lower layers",
                edge.from, edge.to, edge.at
            ));
        }
    }
    Ok(problems)
}

/// The name edges to the crate root's own items are counted under: it stands above every
/// layer, so no module may name what the root defines (`crate::score`).
pub const ROOT: &str = "(crate root)";

/// The names the crate root (`lib.rs` or `main.rs`) makes, each with where it comes from: a
/// re-exported name with the top-level module of its `pub use` (`Category` → `categorise`),
/// a name the root defines itself (`fn`, `const`, `static`, `struct`, `enum`, `type`,
/// `trait`) with [`ROOT`].
fn root_names(src: &Path) -> std::io::Result<BTreeMap<String, String>> {
    let mut names = BTreeMap::new();
    for root in ["lib.rs", "main.rs"] {
        let path = src.join(root);
        if !path.exists() {
            continue;
        }
        let text = std::fs::read_to_string(path)?;
        let lines = code_lines(&text);
        let mut statement = String::new();
        for (_, line) in &lines {
            let trimmed = line.trim();
            if statement.is_empty() && !trimmed.starts_with("pub use ") {
                let words: Vec<&str> = trimmed.split_whitespace().collect();
                let defines = ["fn", "const", "static", "struct", "enum", "type", "trait"];
                if words.first() == Some(&"pub") && words.len() > 2 && defines.contains(&words[1]) {
                    let name: String = words[2]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    names.insert(name, ROOT.to_owned());
                }
                continue;
            }
            statement.push_str(trimmed);
            statement.push(' ');
            if !trimmed.ends_with(';') {
                continue;
            }
            let body = statement
                .trim_start_matches("pub use ")
                .trim_end()
                .trim_end_matches(';');
            let module: String = body
                .trim_start_matches("crate::")
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let tail = body.rsplit("::").next().unwrap_or_default();
            let items = tail.trim_start_matches('{').trim_end_matches('}');
            for item in items.split(',') {
                let item = item.trim();
                let name = item.rsplit(" as ").next().unwrap_or(item).trim();
                if !name.is_empty() && name != "self" {
                    names.insert(name.to_owned(), module.clone());
                }
            }
            statement.clear();
        }
    }
    Ok(names)
}

/// How many modules deep `file` is below the crate root: 1 for `src/check/mod.rs` and
/// `src/check.rs` (module `check`), 2 for `src/check/balance.rs`.
fn module_depth(src: &Path, file: &Path) -> usize {
    let relative = file.strip_prefix(src).unwrap_or(file);
    let parts = relative.components().count();
    if relative.file_name().is_some_and(|n| n == "mod.rs") {
        parts - 1
    } else {
        parts
    }
}

/// `line` with every `super::` chain that climbs `depth` levels or more (to the crate root)
/// written as the `crate::` path it is.
fn climbing_to_crate(line: &str, depth: usize) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("super::") {
        let boundary =
            at == 0 || !rest[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        out.push_str(&rest[..at]);
        let mut chain = &rest[at..];
        let mut count = 0;
        while let Some(next) = chain.strip_prefix("super::") {
            count += 1;
            chain = next;
        }
        if boundary && count >= depth {
            out.push_str("crate::");
        } else {
            out.push_str(&rest[at..rest.len() - chain.len()]);
        }
        rest = chain;
    }
    out.push_str(rest);
    out
}

/// The crate's top-level modules (`x.rs` or `x/`) and the `.rs` files of each, but the crate
/// root and `tests.rs` files.
fn top_level_modules(src: &Path) -> std::io::Result<BTreeMap<String, Vec<PathBuf>>> {
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(src)? {
        let path = entry?.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()).map(str::to_owned) else {
            continue;
        };
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files)?;
            modules.entry(stem).or_default().extend(files);
        } else if path.extension().is_some_and(|e| e == "rs") && stem != "lib" && stem != "main" {
            modules.entry(stem).or_default().push(path);
        }
    }
    for files in modules.values_mut() {
        files.retain(|f| f.file_name().is_none_or(|n| n != "tests.rs"));
        files.sort();
    }
    Ok(modules)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The lines of code of `text` with their numbers (from 1): comment lines and `#[cfg(test)]`
/// items (a one-line item, or everything to the brace that closes the item's first one) left
/// out.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut kept = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed.starts_with("#[cfg(test)]") {
            skip_item(&mut lines);
            continue;
        }
        kept.push((n + 1, line));
    }
    kept
}

/// Skips the item after a `#[cfg(test)]`: its attributes, then its lines up to the brace that
/// closes its first one (or to its `;` when it has no body).
fn skip_item<'a>(lines: &mut impl Iterator<Item = (usize, &'a str)>) {
    let mut depth = 0i64;
    let mut opened = false;
    for (_, line) in lines.by_ref() {
        let trimmed = line.trim_start();
        if !opened && (trimmed.starts_with("#[") || trimmed.starts_with("//")) {
            continue;
        }
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if (opened && depth <= 0) || (!opened && trimmed.ends_with(';')) {
            return;
        }
    }
}

/// The first segment of every `crate::` path in `lines`, with its line number: `x` of
/// `crate::x::y`, and each `x` of `crate::{x, y::z}` (a group may span lines).
fn crate_paths(lines: &[(usize, &str)]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut group: Option<(usize, i64)> = None;
    for (n, line) in lines {
        let mut rest = *line;
        if let Some((start, depth)) = group.as_mut() {
            rest = take_group(rest, *start, depth, &mut found);
            if *depth > 0 {
                continue;
            }
            group = None;
        }
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            if let Some(inner) = after.strip_prefix('{') {
                let mut depth = 1;
                rest = take_group(inner, *n, &mut depth, &mut found);
                if depth > 0 {
                    group = Some((*n, depth));
                    break;
                }
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                found.push((*n, name));
                rest = after;
            }
        }
    }
    found
}

/// Reads the inside of a `crate::{…}` group from `text` at `depth` (1 just inside it): the
/// first identifier of each item at depth 1, each counted at line `line`. Returns what follows
/// the group's end (or `""` when it goes on past this text).
fn take_group<'a>(
    text: &'a str,
    line: usize,
    depth: &mut i64,
    found: &mut Vec<(usize, String)>,
) -> &'a str {
    let mut expecting = true;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' => *depth += 1,
            '}' => {
                *depth -= 1;
                if *depth == 0 {
                    return &text[i + 1..];
                }
            }
            ',' if *depth == 1 => expecting = true,
            c if expecting && *depth == 1 && (c.is_ascii_alphabetic() || c == '_') => {
                let mut name = String::from(c);
                while let Some((_, next)) = chars.peek() {
                    if next.is_ascii_alphanumeric() || *next == '_' {
                        name.push(*next);
                        chars.next();
                    } else {
                        break;
                    }
                }
                found.push((line, name));
                expecting = false;
            }
            _ => {}
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_paths_groups_and_skips_tests_and_comments() {
        let text = "use crate::a::X;\n// crate::commented\nuse crate::{b, c::{D, E},\n    d};\n\
                    fn f() { crate::e::go(); }\n#[cfg(test)]\nmod tests {\n    use crate::t;\n}\n\
                    #[cfg(test)]\nuse crate::u;\nconst K: u8 = crate::k::K;\n";
        let names: Vec<(usize, String)> = crate_paths(&code_lines(text));
        let just: Vec<&str> = names.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(just, ["a", "b", "c", "d", "e", "k"]);
        assert_eq!(names[3].0, 3, "a group's items count at the line it starts");
        assert_eq!(names[5].0, 12);
    }

    #[test]
    fn super_chains_that_climb_to_the_root_are_crate_paths() {
        assert_eq!(climbing_to_crate("use super::x::Y;", 1), "use crate::x::Y;");
        assert_eq!(climbing_to_crate("use super::Y;", 2), "use super::Y;");
        assert_eq!(
            climbing_to_crate("a(super::super::z, super::w)", 2),
            "a(crate::z, super::w)"
        );
        assert_eq!(climbing_to_crate("not_super::x", 1), "not_super::x");
        let src = Path::new("src");
        assert_eq!(module_depth(src, Path::new("src/check/mod.rs")), 1);
        assert_eq!(module_depth(src, Path::new("src/check.rs")), 1);
        assert_eq!(module_depth(src, Path::new("src/check/balance.rs")), 2);
    }
}
