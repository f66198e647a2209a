//! The repository's copy of the shared test data (`testdata/`) must not drift from `shared/data/` where the
//! project's shared folder sits beside the repository (as on the team's machines and in CI).

use std::path::Path;

use tabula_games::othello::records::read_logbook;

#[test]
fn testdata_matches_the_shared_data() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shared = repo.join("../shared/data");
    let ours = repo.join("testdata");
    let mut compared = 0;
    for entry in std::fs::read_dir(&ours).expect("testdata/ exists") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name").to_owned();
        if name == "README.md" {
            continue;
        }
        let copy = std::fs::read(&path).expect("read testdata file");
        assert!(!copy.is_empty(), "{} is empty", path.display());
        if name == "logbook-sample.gam.gz" {
            // The first 500 games of the logbook, recompressed.
            let full = shared.join("othello-games/logbook.gam.gz");
            if full.exists() {
                let sample = read_logbook(&path).expect("read the sample");
                let all = read_logbook(&full).expect("read the logbook");
                assert!(
                    sample[..] == all[..500],
                    "testdata/logbook-sample.gam.gz is not the logbook's first 500 games"
                );
            }
            compared += 1;
            continue;
        }
        let original =
            if name == "WTH_2021.wtb" { shared.join("othello-games/wthor").join(&name) } else { shared.join(&name) };
        if original.exists() {
            let source = std::fs::read(&original).expect("read shared file");
            assert!(copy == source, "testdata/{} differs from shared/data: copy it again", name.to_string_lossy());
        }
        compared += 1;
    }
    assert_eq!(compared, 6, "six data files are expected in testdata/");
}
