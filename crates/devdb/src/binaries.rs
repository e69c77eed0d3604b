//! Finding the PostgreSQL server programs, since distributions install them in different places
//! and Debian keeps them off `PATH`.

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::DevDbError;

/// Where Debian-style packages put one directory per major version.
const DEBIAN_ROOT: &str = "/usr/lib/postgresql";

/// The programs we run; a directory is only usable when it has all of them.
const PROGRAMS: [&str; 3] = ["initdb", "pg_ctl", "postgres"];

/// A directory holding `initdb`, `pg_ctl` and `postgres` of one PostgreSQL installation.
#[derive(Debug, Clone)]
pub(crate) struct Binaries {
    dir: PathBuf,
}

impl Binaries {
    /// Looks in the documented order: `OPINION_PG_BIN`, then `pg_ctl` on `PATH`, then the newest
    /// `/usr/lib/postgresql/*/bin`.
    pub(crate) fn locate() -> Result<Binaries, DevDbError> {
        Self::locate_in(
            std::env::var_os("OPINION_PG_BIN"),
            std::env::var_os("PATH"),
            Path::new(DEBIAN_ROOT),
        )
    }

    /// The lookup itself, with its inputs passed in so it can be tested without touching the real system.
    fn locate_in(
        explicit: Option<OsString>,
        path: Option<OsString>,
        debian_root: &Path,
    ) -> Result<Binaries, DevDbError> {
        if let Some(dir) = explicit.filter(|dir| !dir.is_empty()) {
            let dir = PathBuf::from(dir);
            return if is_complete(&dir) {
                Ok(Binaries { dir })
            } else {
                Err(DevDbError::BadBinDir(dir))
            };
        }
        let on_path = path
            .iter()
            .flat_map(std::env::split_paths)
            .find(|dir| is_executable(&dir.join("pg_ctl")));
        on_path
            .into_iter()
            .chain(newest_debian_bin(debian_root))
            .find(|dir| is_complete(dir))
            .map(|dir| Binaries { dir })
            .ok_or(DevDbError::BinariesNotFound)
    }

    /// Path of `initdb`.
    pub(crate) fn initdb(&self) -> PathBuf {
        self.dir.join("initdb")
    }

    /// Path of `pg_ctl`.
    pub(crate) fn pg_ctl(&self) -> PathBuf {
        self.dir.join("pg_ctl")
    }

    /// Path of another program of the same installation (e.g. `pgbench`), if it is there:
    /// next to `pg_ctl`, or next to the file `pg_ctl` links to when the directory only
    /// holds links to the server programs (as a `/usr/local/bin` set up by hand does).
    pub(crate) fn program(&self, name: &str) -> Option<PathBuf> {
        let linked_dir = std::fs::canonicalize(self.pg_ctl())
            .ok()
            .and_then(|target| target.parent().map(Path::to_path_buf));
        std::iter::once(self.dir.clone())
            .chain(linked_dir)
            .map(|dir| dir.join(name))
            .find(|path| is_executable(path))
    }
}

/// The `bin` directory of the highest major version under `root`, compared numerically so 15 beats 9.6.
fn newest_debian_bin(root: &Path) -> Option<PathBuf> {
    let entries = std::fs::read_dir(root).ok()?;
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = parse_version(entry.file_name().to_str()?)?;
            Some((version, entry.path().join("bin")))
        })
        .max_by(|(a, _), (b, _)| a.cmp(b))
        .map(|(_, bin)| bin)
}

/// "9.6" becomes [9, 6]; anything that is not a version number is ignored.
fn parse_version(name: &str) -> Option<Vec<u32>> {
    name.split('.').map(|part| part.parse().ok()).collect()
}

/// Whether `dir` has every program we need.
fn is_complete(dir: &Path) -> bool {
    PROGRAMS.iter().all(|program| is_executable(&dir.join(program)))
}

/// A regular file (or a link to one) with an execute bit set.
fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Creates `dir` holding empty executables with the given names.
    fn fake_bin(dir: &Path, programs: &[&str]) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        for program in programs {
            let path = dir.join(program);
            std::fs::write(&path, "").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        dir.to_path_buf()
    }

    struct Layout {
        _root: tempfile::TempDir,
        explicit: PathBuf,
        on_path: PathBuf,
        incomplete_on_path: PathBuf,
        debian: PathBuf,
    }

    fn layout() -> Layout {
        let root = tempfile::tempdir().unwrap();
        let base = root.path();
        let debian = base.join("debian");
        fake_bin(&debian.join("9.6/bin"), &PROGRAMS);
        fake_bin(&debian.join("14/bin"), &PROGRAMS);
        fake_bin(&debian.join("15/bin"), &PROGRAMS);
        fake_bin(&debian.join("not-a-version/bin"), &PROGRAMS);
        Layout {
            explicit: fake_bin(&base.join("explicit"), &PROGRAMS),
            on_path: fake_bin(&base.join("path"), &PROGRAMS),
            incomplete_on_path: fake_bin(&base.join("client-only"), &["pg_ctl"]),
            debian,
            _root: root,
        }
    }

    fn path_of(dirs: &[&Path]) -> Option<OsString> {
        Some(std::env::join_paths(dirs).unwrap())
    }

    #[test]
    fn explicit_directory_wins() {
        let l = layout();
        let found = Binaries::locate_in(Some(l.explicit.clone().into()), path_of(&[&l.on_path]), &l.debian).unwrap();
        assert_eq!(found.dir, l.explicit);
    }

    #[test]
    fn explicit_directory_without_the_programs_is_an_error() {
        let l = layout();
        let err = Binaries::locate_in(
            Some(l.incomplete_on_path.clone().into()),
            path_of(&[&l.on_path]),
            &l.debian,
        )
        .unwrap_err();
        assert!(matches!(err, DevDbError::BadBinDir(dir) if dir == l.incomplete_on_path));
    }

    #[test]
    fn pg_ctl_on_path_comes_next() {
        let l = layout();
        let found = Binaries::locate_in(None, path_of(&[&l.on_path]), &l.debian).unwrap();
        assert_eq!(found.pg_ctl(), l.on_path.join("pg_ctl"));
    }

    #[test]
    fn incomplete_path_directory_falls_back_to_newest_debian_version() {
        let l = layout();
        let found = Binaries::locate_in(None, path_of(&[&l.incomplete_on_path, &l.on_path]), &l.debian).unwrap();
        assert_eq!(found.initdb(), l.debian.join("15/bin/initdb"));
    }

    #[test]
    fn nothing_installed_is_reported() {
        let l = layout();
        let err = Binaries::locate_in(None, None, &l.on_path.join("missing")).unwrap_err();
        assert!(matches!(err, DevDbError::BinariesNotFound));
    }

    #[test]
    fn other_programs_are_found_only_when_installed() {
        let l = layout();
        let found = Binaries::locate_in(Some(l.explicit.clone().into()), None, &l.debian).unwrap();
        assert_eq!(found.program("postgres"), Some(l.explicit.join("postgres")));
        assert_eq!(found.program("pgbench"), None);
    }

    #[test]
    fn other_programs_are_found_where_linked_programs_live() {
        let l = layout();
        let links = l.explicit.parent().unwrap().join("links");
        std::fs::create_dir(&links).unwrap();
        for program in PROGRAMS {
            std::os::unix::fs::symlink(l.explicit.join(program), links.join(program)).unwrap();
        }
        fake_bin(&l.explicit, &["pgbench"]);
        let found = Binaries::locate_in(Some(links.into()), None, &l.debian).unwrap();
        assert_eq!(
            found.program("pgbench"),
            Some(std::fs::canonicalize(&l.explicit).unwrap().join("pgbench"))
        );
    }

    #[test]
    fn versions_compare_numerically() {
        assert!(parse_version("15") > parse_version("9.6"));
        assert_eq!(parse_version("main"), None);
    }
}
