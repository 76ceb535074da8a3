//! `alama score --passwords FILE.csv`: the password of each statement in a batch.
//!
//! The CSV has two columns, file name and password, one statement per row; a first row
//! `file,password` (or `file name`, `filename`, `path`) is a header and skipped. A row names a
//! statement by its file name (`MPESA_Statement_0712.pdf`) or by the path as given on the command
//! line (`statements/0712.pdf`). Passwords are never printed.

use std::collections::HashMap;
use std::path::Path;

/// The passwords read from the CSV, by path as written and by file name.
#[derive(Debug, Default)]
pub struct Passwords {
    by_key: HashMap<String, String>,
}

impl Passwords {
    /// Reads the CSV at `path`.
    ///
    /// # Errors
    /// A one-line `error[io_error]: …` when the file cannot be read, or
    /// `error[malformed_statement]: …` naming the line of a row without two columns.
    pub fn load(path: &Path) -> Result<Self, String> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .trim(csv::Trim::All)
            .from_path(path)
            .map_err(|e| format!("error[io_error]: cannot read {}: {e}", path.display()))?;
        let mut by_key = HashMap::new();
        for (index, record) in reader.records().enumerate() {
            let record = record.map_err(|e| {
                format!(
                    "error[malformed_statement]: {}: not a CSV file: {e}",
                    path.display()
                )
            })?;
            let fields: Vec<&str> = record.iter().collect();
            let (file, password) = match fields.as_slice() {
                [] | [""] => continue,
                [file, password, ..] => (*file, *password),
                [_] => {
                    return Err(format!(
                        "error[malformed_statement]: {} line {}: expected two columns, file name and password",
                        path.display(),
                        index + 1
                    ));
                }
            };
            if index == 0 && is_header(file, password) {
                continue;
            }
            by_key.insert(file.to_owned(), password.to_owned());
        }
        Ok(Self { by_key })
    }

    /// The password for `file`: the row naming its path as given, else the row naming its file
    /// name; `None` when no row names it.
    pub fn for_file(&self, file: &Path) -> Option<&str> {
        let as_given = file.to_string_lossy();
        self.by_key
            .get(as_given.as_ref())
            .or_else(|| {
                file.file_name()
                    .and_then(|name| self.by_key.get(name.to_string_lossy().as_ref()))
            })
            .map(String::as_str)
    }
}

fn is_header(file: &str, password: &str) -> bool {
    let file = file.to_ascii_lowercase();
    ["file", "file name", "filename", "file_name", "path"].contains(&file.as_str())
        && password.eq_ignore_ascii_case("password")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Passwords {
        let dir = std::env::temp_dir().join(format!("alama-passwords-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(format!("{}.csv", text.len()));
        std::fs::write(&path, text).expect("write");
        let passwords = Passwords::load(&path).expect("loads");
        let _ = std::fs::remove_file(path);
        passwords
    }

    #[test]
    fn header_is_skipped_and_rows_match_by_name_or_path() {
        let p = load("file,password\na.pdf,111\n\"dir/b.pdf\", 222 \n");
        assert_eq!(p.for_file(Path::new("statements/a.pdf")), Some("111"));
        assert_eq!(p.for_file(Path::new("dir/b.pdf")), Some("222"));
        assert_eq!(p.for_file(Path::new("other/b.pdf")), None);
        assert_eq!(p.for_file(Path::new("file")), None);
    }

    #[test]
    fn a_row_with_one_column_is_an_error_naming_its_line() {
        let dir = std::env::temp_dir().join(format!("alama-passwords-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("bad.csv");
        std::fs::write(&path, "a.pdf,1\nb.pdf\n").expect("write");
        let err = Passwords::load(&path).expect_err("one column");
        assert!(err.contains("line 2"), "{err}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
