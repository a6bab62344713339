//! Objects as files: `<root>/<first two characters>/<name>`, each written to a temporary file
//! and renamed into place, so a reader never sees half an object and a crash leaves none.

use crate::checked_name;
use async_trait::async_trait;
use bytes::Bytes;
use media::{MediaStore, StoreError};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The media store on the local file system.
#[derive(Debug)]
pub struct FsMediaStore {
    root: PathBuf,
    /// Names temporary files apart when two writes of one object meet.
    writes: AtomicU64,
}

impl FsMediaStore {
    /// A store under `root` (created on first write).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into(), writes: AtomicU64::new(0) }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, name: &str) -> Result<PathBuf, StoreError> {
        let name = checked_name(name)?;
        Ok(self.root.join(&name[..2.min(name.len())]).join(name))
    }
}

fn failed(doing: &str, path: &Path, error: std::io::Error) -> StoreError {
    StoreError(format!("{doing} {}: {error}", path.display()))
}

#[async_trait]
impl MediaStore for FsMediaStore {
    async fn put(&self, name: &str, bytes: Bytes, _content_type: &'static str) -> Result<(), StoreError> {
        let path = self.path(name)?;
        if tokio::fs::try_exists(&path).await.unwrap_or(false) {
            return Ok(());
        }
        let folder = path.parent().unwrap_or(&self.root);
        tokio::fs::create_dir_all(folder).await.map_err(|e| failed("creating", folder, e))?;
        let temporary = folder.join(format!(".{name}.{}.{}", std::process::id(), self.writes.fetch_add(1, Ordering::Relaxed)));
        if let Err(error) = tokio::fs::write(&temporary, &bytes).await {
            let _ = tokio::fs::remove_file(&temporary).await;
            return Err(failed("writing", &temporary, error));
        }
        tokio::fs::rename(&temporary, &path).await.map_err(|e| failed("renaming into", &path, e))
    }

    async fn get(&self, name: &str) -> Result<Option<Bytes>, StoreError> {
        let path = self.path(name)?;
        match tokio::fs::read(&path).await {
            Ok(bytes) => Ok(Some(Bytes::from(bytes))),
            Err(error) if error.kind() == ErrorKind::NotFound => Ok(None),
            Err(error) => Err(failed("reading", &path, error)),
        }
    }

    async fn delete(&self, name: &str) -> Result<(), StoreError> {
        let path = self.path(name)?;
        match tokio::fs::remove_file(&path).await {
            Err(error) if error.kind() != ErrorKind::NotFound => Err(failed("removing", &path, error)),
            _ => Ok(()),
        }
    }
}
