//! The SMTP mailer against a minimal SMTP server on loopback.

use kernel::{Email, Mailer, OutgoingEmail};
use mail_smtp::SmtpMailer;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// Accepts one session, answers every command, and returns what it received.
async fn fake_smtp_server() -> (u16, tokio::task::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let task = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let (read, mut write) = stream.into_split();
        let mut lines = BufReader::new(read).lines();
        let mut transcript = String::new();
        write.write_all(b"220 fake.example ESMTP\r\n").await.unwrap();
        let mut in_data = false;
        while let Ok(Some(line)) = lines.next_line().await {
            transcript.push_str(&line);
            transcript.push('\n');
            let reply: &[u8] = if in_data {
                if line == "." {
                    in_data = false;
                    b"250 queued\r\n"
                } else {
                    continue;
                }
            } else if line.starts_with("EHLO") {
                b"250-fake.example\r\n250 8BITMIME\r\n"
            } else if line == "DATA" {
                in_data = true;
                b"354 go ahead\r\n"
            } else if line == "QUIT" {
                write.write_all(b"221 bye\r\n").await.unwrap();
                break;
            } else {
                b"250 ok\r\n"
            };
            write.write_all(reply).await.unwrap();
        }
        transcript
    });
    (port, task)
}

#[tokio::test]
async fn an_email_is_handed_to_the_smtp_server() {
    let (port, server) = fake_smtp_server().await;
    let mailer = SmtpMailer::new(&format!("smtp://127.0.0.1:{port}"), "Launchdir <noreply@launch.example>").unwrap();
    mailer
        .send(OutgoingEmail {
            to: Email::parse("ada@example.com").unwrap(),
            subject: "You are invited".into(),
            body: "Hello Ada".into(),
            kind: "draft_invite".into(),
        })
        .await
        .unwrap();
    drop(mailer);
    let transcript = tokio::time::timeout(std::time::Duration::from_secs(10), server).await.unwrap().unwrap();
    assert!(transcript.contains("MAIL FROM:<noreply@launch.example>"), "{transcript}");
    assert!(transcript.contains("RCPT TO:<ada@example.com>"), "{transcript}");
    assert!(transcript.contains("Subject: You are invited"), "{transcript}");
    assert!(transcript.contains("Hello Ada"), "{transcript}");
}

#[test]
fn bad_settings_are_named() {
    assert!(SmtpMailer::new("ftp://x", "a@b.example").unwrap_err().to_string().contains("mail.smtp_url"));
    assert!(SmtpMailer::new("smtp://127.0.0.1:25", "not an address").unwrap_err().to_string().contains("mail.from"));
}
