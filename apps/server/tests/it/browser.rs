//! Pages as a person uses them: Debian's headless Chromium through its chromedriver, driven by
//! thirtyfour, found by what is on the screen (labels, button names); axe-core checks each page
//! for serious and critical accessibility violations (in the light and the dark scheme where asked); a failing test leaves a screenshot under
//! `target/screenshots/`.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use thirtyfour::prelude::*;

/// Where `cargo xtask test` installs axe-core (npm) for these tests.
const AXE: &str = "target/browser/node_modules/axe-core/axe.min.js";

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub struct Browser {
    pub driver: WebDriver,
    chromedriver: Child,
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.chromedriver.kill();
        let _ = self.chromedriver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium with a fresh profile. The
    /// networking flags keep Chromium from calling home, which fails in bulk on a closed network.
    pub async fn start() -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let chromedriver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver is needed for the browser tests: apt-get install chromium chromium-driver (.ci/run does)");
        let profile = std::env::temp_dir().join(format!("launchdir-chromium-{}-{port}", std::process::id()));
        let status = format!("http://127.0.0.1:{port}/status");
        let client = crate::helpers::client();
        for _ in 0..100 {
            if client.get(&status).send().await.is_ok_and(|reply| reply.status().is_success()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut caps = DesiredCapabilities::chrome();
        caps.set_binary("/usr/bin/chromium").unwrap();
        for arg in [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--window-size=1280,900",
            &format!("--user-data-dir={}", profile.display()),
        ] {
            caps.add_arg(arg).unwrap();
        }
        let driver = WebDriver::new(format!("http://127.0.0.1:{port}"), caps).await.expect("start headless Chromium");
        Browser { driver, chromedriver, profile }
    }

    /// Runs a test's steps, then ends the browser session; when a step fails, the page is saved
    /// to `target/screenshots/<name>.png` before the failure is reported. (A session left to
    /// thirtyfour's drop is ended synchronously, which blocks the test's runtime for minutes.)
    pub async fn run<F: std::future::Future<Output = ()>>(&self, name: &str, steps: F) {
        use futures_util::FutureExt;
        let outcome = std::panic::AssertUnwindSafe(steps).catch_unwind().await;
        if let Err(panic) = outcome {
            let dir = workspace_root().join("target/screenshots");
            let _ = std::fs::create_dir_all(&dir);
            let path = dir.join(format!("{name}.png"));
            match self.driver.screenshot(&path).await {
                Ok(()) => eprintln!("screenshot of the failing page: {}", path.display()),
                Err(err) => eprintln!("no screenshot: {err}"),
            }
            let _ = self.driver.clone().quit().await;
            std::panic::resume_unwind(panic);
        }
        self.driver.clone().quit().await.expect("end the browser session");
    }

    /// With `LAUNCHDIR_SCREENSHOTS` set, every page checked for accessibility is also saved to
    /// `target/screenshots/pages/<path>.png` as the window shows it (1280 px wide) and to
    /// `<path>-390.png` as a phone 390 px wide does, to look at as a visitor would.
    async fn keep_screenshot(&self) {
        if std::env::var_os("LAUNCHDIR_SCREENSHOTS").is_none() {
            return;
        }
        let Ok(url) = self.driver.current_url().await else { return };
        let name: String = url.path().trim_matches('/').chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).take(80).collect();
        let name = if name.is_empty() { "home".to_owned() } else { name };
        let dir = workspace_root().join("target/screenshots/pages");
        let _ = std::fs::create_dir_all(&dir);
        let _ = self.driver.screenshot(&dir.join(format!("{name}.png"))).await;
        if std::env::var("LAUNCHDIR_SCREENSHOTS").as_deref() == Ok("full") {
            self.whole_page(&dir.join(format!("{name}-full.png"))).await;
        }
        if let Ok(wide) = self.driver.get_window_rect().await {
            let _ = self.driver.set_window_rect(wide.x, wide.y, 390, 844).await;
            let _ = self.driver.screenshot(&dir.join(format!("{name}-390.png"))).await;
            if std::env::var("LAUNCHDIR_SCREENSHOTS").as_deref() == Ok("full") {
                self.whole_page(&dir.join(format!("{name}-390-full.png"))).await;
            }
            let (width, height) = (u32::try_from(wide.width).unwrap_or(1280), u32::try_from(wide.height).unwrap_or(900));
            let _ = self.driver.set_window_rect(wide.x, wide.y, width, height).await;
        }
    }

    /// The whole page, not only the window (`LAUNCHDIR_SCREENSHOTS=full`), through the DevTools
    /// protocol's capture beyond the viewport.
    async fn whole_page(&self, path: &std::path::Path) {
        use base64::Engine;
        let params = serde_json::json!({"format": "png", "captureBeyondViewport": true});
        let Ok(shot) = self.driver.cdp().send_raw("Page.captureScreenshot", params).await else { return };
        if let Some(Ok(png)) = shot["data"].as_str().map(|data| base64::engine::general_purpose::STANDARD.decode(data)) {
            let _ = std::fs::write(path, png);
        }
    }

    /// The input whose label reads `label`.
    pub async fn field(&self, label: &str) -> WebElement {
        let label = self
            .driver
            .find(By::XPath(format!("//label[normalize-space()=\"{label}\"]")))
            .await
            .unwrap_or_else(|_| panic!("no label {label:?}"));
        let id = label.attr("for").await.unwrap().unwrap_or_else(|| panic!("the label {label:?} names no input"));
        self.driver.find(By::Id(id)).await.unwrap()
    }

    /// Chooses the option that reads `option` in the list labelled `label`.
    pub async fn choose(&self, label: &str, option: &str) {
        let list = self.field(label).await;
        let choice = list
            .find(By::XPath(format!(".//option[normalize-space()=\"{option}\"]")))
            .await
            .unwrap_or_else(|_| panic!("{label:?} offers no {option:?}"));
        choice.click().await.unwrap();
    }

    /// Clicks the label (of a radio button or a check box) whose text starts with `start`.
    pub async fn tick(&self, start: &str) {
        self.driver
            .find(By::XPath(format!("//label[starts-with(normalize-space(), \"{start}\")]")))
            .await
            .unwrap_or_else(|_| panic!("no label starting {start:?}"))
            .click()
            .await
            .unwrap();
    }

    /// The button whose text is `name`.
    pub async fn button(&self, name: &str) -> WebElement {
        self.driver
            .find(By::XPath(format!("//button[normalize-space()=\"{name}\"]")))
            .await
            .unwrap_or_else(|_| panic!("no button {name:?}"))
    }

    /// The page's visible text. A click that submits a form may still be loading the next page,
    /// whose body replaces the one found: then it is read again.
    pub async fn text(&self) -> String {
        let mut last_error = None;
        for _ in 0..50 {
            match self.driver.find(By::Tag("body")).await {
                Ok(body) => match body.text().await {
                    Ok(text) => return text,
                    Err(err) => last_error = Some(err),
                },
                Err(err) => last_error = Some(err),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the page's text could not be read: {last_error:?}");
    }

    /// Waits (up to 10 s) until the page shows `needle`, as a person waits for the next page
    /// after pressing a button; returns the page's text.
    pub async fn wait_for_text(&self, needle: &str) -> String {
        self.wait_for_text_for(needle, Duration::from_secs(10)).await
    }

    /// `wait_for_text` for work that takes longer than a page load (a site being read).
    pub async fn wait_for_text_for(&self, needle: &str, bound: Duration) -> String {
        let mut text = String::new();
        for _ in 0..bound.as_millis() / 100 {
            text = self.text().await;
            if text.contains(needle) {
                return text;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the page never showed {needle:?}; it shows:\n{text}");
    }

    /// `assert_accessible` in the light scheme, then again with the browser asking for dark
    /// (`prefers-color-scheme: dark`, set through the DevTools protocol), so contrast holds in both.
    pub async fn assert_accessible_light_and_dark(&self) {
        self.assert_accessible().await;
        let scheme = |value: &str| serde_json::json!({"media": "", "features": [{"name": "prefers-color-scheme", "value": value}]});
        let cdp = self.driver.cdp();
        cdp.send_raw("Emulation.setEmulatedMedia", scheme("dark")).await.unwrap();
        let dark = self.driver.execute("return matchMedia('(prefers-color-scheme: dark)').matches;", Vec::new()).await.unwrap();
        assert_eq!(dark.json(), &serde_json::json!(true), "the page sees the dark scheme");
        self.assert_accessible().await;
        cdp.send_raw("Emulation.setEmulatedMedia", scheme("light")).await.unwrap();
    }

    /// Runs axe-core in the page; fails on any serious or critical violation.
    pub async fn assert_accessible(&self) {
        self.keep_screenshot().await;
        let axe = std::fs::read_to_string(workspace_root().join(AXE))
            .unwrap_or_else(|_| panic!("axe-core is needed at {AXE}: `cargo xtask test` installs it (npm install axe-core)"));
        self.driver.execute(&axe, Vec::new()).await.unwrap();
        let result = self
            .driver
            .execute("return axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations));", Vec::new())
            .await
            .unwrap();
        let violations: serde_json::Value = serde_json::from_str(result.json().as_str().unwrap()).unwrap();
        let serious: Vec<String> = violations
            .as_array()
            .unwrap()
            .iter()
            .filter(|violation| matches!(violation["impact"].as_str(), Some("serious" | "critical")))
            .map(|violation| format!("{} ({}): {}", violation["id"], violation["impact"], violation["help"]))
            .collect();
        let url = self.driver.current_url().await.unwrap();
        assert!(serious.is_empty(), "accessibility violations on {url}: {serious:#?}");
    }
}
