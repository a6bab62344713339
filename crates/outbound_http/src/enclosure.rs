//! The renderer's browser runs in a network namespace of its own, whose only interface is its
//! own loopback and whose only listener is the rendering's proxy. The kernel, not a browser
//! flag, then keeps every packet the browser sends (WebRTC's STUN and ICE over UDP, mDNS, a
//! socket a page opens anywhere) inside that namespace: nothing it sends reaches this host's
//! loopback, a private network or the internet except through the proxy, which runs in this
//! process and fetches with the safe fetcher.
//!
//! How: a thread of its own calls `unshare(CLONE_NEWNET)`, which moves only that thread into a
//! new, empty namespace; there it brings the namespace's loopback up (`ip link set lo up`, a
//! child of that thread, so in that namespace), binds the proxy's listening socket, and starts
//! the browser, which inherits the namespace. The thread then ends. The socket stays in the
//! namespace, and this process's other threads accept on it as on any socket, and fetch from
//! the host's namespace. Making a namespace needs `CAP_SYS_ADMIN` (root, or a container that
//! grants it); without it there is no rendering at all (`check`), never an unenclosed browser.

use std::net::TcpListener;
use std::path::PathBuf;

/// `ip` from iproute2, looked for on `PATH` and then where Debian puts it.
fn ip_binary() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").into_iter().flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>());
    on_path
        .chain(["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map(PathBuf::from))
        .map(|dir| dir.join("ip"))
        .find(|candidate| candidate.is_file())
}

/// Moves the calling thread into a new network namespace, brings its loopback up and binds a
/// listener on it. Call only on a thread that ends soon after: it stays in the namespace.
fn enter_fresh_namespace() -> Result<TcpListener, String> {
    let ip = ip_binary().ok_or("`ip` (Debian package iproute2) is needed to bring the browser's loopback up")?;
    nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWNET)
        .map_err(|errno| format!("cannot make a network namespace for the browser ({errno}; it needs CAP_SYS_ADMIN)"))?;
    let status = std::process::Command::new(&ip)
        .args(["link", "set", "lo", "up"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|err| format!("cannot run {}: {err}", ip.display()))?;
    if !status.success() {
        return Err(format!("`ip link set lo up` failed in the browser's namespace ({status})"));
    }
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|err| format!("cannot listen in the browser's namespace: {err}"))?;
    listener.set_nonblocking(true).map_err(|err| err.to_string())?;
    Ok(listener)
}

/// Whether browsers can be enclosed on this machine: makes one namespace and lets it go.
/// `Err` says why not, for the log.
pub(crate) fn check() -> Result<(), String> {
    std::thread::Builder::new()
        .name("render-netns-check".into())
        .spawn(|| enter_fresh_namespace().map(drop))
        .map_err(|err| err.to_string())?
        .join()
        .map_err(|_| "the namespace check panicked".to_owned())?
}

/// Makes a fresh namespace, binds the proxy's listener in it, and runs `start` there with the
/// listener's port: whatever `start` spawns (the browser) lives in that namespace. Returns the
/// listener, for this process to serve, and what `start` returned.
pub(crate) async fn enclosed<T, F>(start: F) -> Result<(tokio::net::TcpListener, T), String>
where
    T: Send + 'static,
    F: FnOnce(u16) -> Result<T, String> + Send + 'static,
{
    let runtime = tokio::runtime::Handle::current();
    let (sender, receiver) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("render-netns".into())
        .spawn(move || {
            let outcome = enter_fresh_namespace().and_then(|listener| {
                let port = listener.local_addr().map_err(|err| err.to_string())?.port();
                // tokio's process and I/O drivers are the runtime's; the fork is this thread's.
                let _entered = runtime.enter();
                start(port).map(|started| (listener, started))
            });
            let _ = sender.send(outcome);
        })
        .map_err(|err| err.to_string())?;
    let (listener, started) = receiver.await.map_err(|_| "the namespace thread ended without an answer".to_owned())??;
    let listener = tokio::net::TcpListener::from_std(listener).map_err(|err| err.to_string())?;
    Ok((listener, started))
}

#[cfg(test)]
mod tests {
    /// The namespace holds nothing of the host's: a listener on the host's loopback cannot be
    /// reached from inside, and the only interface is `lo`.
    #[tokio::test]
    async fn the_enclosure_has_only_its_own_loopback() {
        let host = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let host_port = host.local_addr().unwrap().port();
        let (listener, (reached_host, interfaces)) = super::enclosed(move |_| {
            let reached_host = std::net::TcpStream::connect(("127.0.0.1", host_port)).is_ok();
            let interfaces = std::fs::read_to_string("/proc/thread-self/net/dev").map_err(|err| err.to_string())?;
            Ok((reached_host, interfaces))
        })
        .await
        .expect("these tests run as root, which may make network namespaces");
        assert!(!reached_host, "the host's loopback was reachable from the enclosure");
        let names: Vec<&str> = interfaces.lines().skip(2).filter_map(|line| line.split(':').next()).map(str::trim).collect();
        assert_eq!(names, ["lo"]);
        // This process accepts on the enclosure's listener from any of its threads.
        assert!(listener.local_addr().unwrap().ip().is_loopback());
    }
}
