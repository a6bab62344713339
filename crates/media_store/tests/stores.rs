//! The same store cases against each adapter: the file system, and S3 on a real S3-compatible
//! server (`s3s-fs`, installed by `.ci/run`) that this test starts on loopback.

use bytes::Bytes;
use media::MediaStore;
use media_store::{FsMediaStore, S3Addressing, S3Config, S3MediaStore};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("launchdir-media-{name}-{}-{}", std::process::id(), nanos()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn nanos() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

/// An object name as the media domain makes them, new for each run.
fn object_name(size: &str) -> String {
    format!("{}-{size}.webp", kernel::secrets::sha256_hex(&format!("{}-{}", std::process::id(), nanos())))
}

/// What every adapter must do.
async fn store_cases(store: &dyn MediaStore) {
    let name = object_name("full");
    assert_eq!(store.get(&name).await.unwrap(), None, "nothing before it is written");
    let picture = Bytes::from((0..3 * 1024 * 1024).map(|at| (at % 251) as u8).collect::<Vec<u8>>());
    store.put(&name, picture.clone(), "image/webp").await.unwrap();
    assert_eq!(store.get(&name).await.unwrap(), Some(picture.clone()), "a 3 MiB object comes back whole");
    store.put(&name, picture.clone(), "image/webp").await.unwrap();
    assert_eq!(store.get(&name).await.unwrap(), Some(picture), "writing it again changes nothing");

    let small = object_name("128");
    store.put(&small, Bytes::from_static(b"tiny"), "image/webp").await.unwrap();
    assert_eq!(store.get(&small).await.unwrap().as_deref(), Some(&b"tiny"[..]));

    store.delete(&name).await.unwrap();
    assert_eq!(store.get(&name).await.unwrap(), None);
    store.delete(&name).await.unwrap();
    assert_eq!(store.get(&small).await.unwrap().as_deref(), Some(&b"tiny"[..]), "only that object went");

    for bad in ["../etc/passwd", ".hidden", "Upper.png", "a/b.png", ""] {
        assert!(store.put(bad, Bytes::from_static(b"x"), "image/png").await.is_err(), "{bad:?}");
        assert!(store.get(bad).await.is_err(), "{bad:?}");
    }
}

#[tokio::test]
async fn the_file_system_store_keeps_objects() {
    let root = scratch("fs");
    let store = FsMediaStore::new(root.join("media"));
    store_cases(&store).await;
    let leftovers: Vec<_> = walk(&root).into_iter().filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.')).collect();
    assert!(leftovers.is_empty(), "no temporary file is left behind: {leftovers:?}");
    std::fs::remove_dir_all(root).unwrap();
}

#[tokio::test]
async fn the_file_system_store_says_what_failed() {
    let root = scratch("fs-blocked");
    // A file where the store's folder should be: every write fails, and says where.
    std::fs::write(root.join("media"), b"not a folder").unwrap();
    let store = FsMediaStore::new(root.join("media"));
    let error = store.put(&object_name("full"), Bytes::from_static(b"x"), "image/webp").await.unwrap_err();
    assert!(error.to_string().contains("media"), "{error}");
    std::fs::remove_dir_all(root).unwrap();
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// `s3s-fs` serving a scratch folder on a free loopback port, stopped when dropped.
struct S3Server {
    child: Child,
    port: u16,
    root: PathBuf,
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

const ACCESS_KEY: &str = "launchdir-test";
const SECRET_KEY: &str = "launchdir-test-secret-key";

fn s3_server(bucket: &str) -> S3Server {
    let root = scratch("s3");
    std::fs::create_dir_all(root.join(bucket)).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let binary = std::env::var("LAUNCHDIR_S3S_FS").unwrap_or_else(|_| "s3s-fs".into());
    let child = Command::new(&binary)
        .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--access-key", ACCESS_KEY, "--secret-key", SECRET_KEY])
        .arg(&root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{binary} did not start ({e}); `cargo install s3s-fs@0.14.1 --features binary --locked` installs it"));
    let server = S3Server { child, port, root };
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "s3s-fs did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

fn s3_config(server: &S3Server, bucket: &str, secret: &str) -> S3Config {
    S3Config {
        endpoint: format!("http://127.0.0.1:{}", server.port),
        bucket: bucket.into(),
        region: "us-east-1".into(),
        access_key_id: ACCESS_KEY.into(),
        secret_access_key: secret.into(),
        prefix: String::new(),
        addressing: S3Addressing::Path,
    }
}

#[tokio::test]
async fn the_s3_store_keeps_objects_on_a_real_s3_server() {
    let server = s3_server("launchdir-media");
    let store = S3MediaStore::new(s3_config(&server, "launchdir-media", SECRET_KEY)).unwrap();
    store_cases(&store).await;
    // The objects are where an operator looks for them: in the bucket, under their names.
    assert!(walk(&server.root.join("launchdir-media")).iter().any(|p| p.to_string_lossy().ends_with("-128.webp")));
}

#[tokio::test]
async fn the_s3_store_reports_a_wrong_secret() {
    let server = s3_server("launchdir-media");
    let wrong = S3MediaStore::new(s3_config(&server, "launchdir-media", "not-the-secret")).unwrap();
    let error = wrong.put(&object_name("full"), Bytes::from_static(b"x"), "image/webp").await.unwrap_err();
    assert!(error.to_string().contains("403"), "{error}");
    assert!(!error.to_string().contains(SECRET_KEY) && !error.to_string().contains("not-the-secret"), "no secret in the error");
}
