//! The resolver against a real authoritative server on loopback: records that appear while it
//! runs (nothing cached), records split into strings, CNAMEs, SERVFAIL and an unreachable server.

use claims::{TxtLookup, TxtResolver};
use dns_txt::HickoryTxtResolver;
use dns_txt::testing::{SERVFAIL_NAME, TestDns};

#[tokio::test]
async fn txt_records_as_the_server_has_them_now() {
    let dns = TestDns::start().await;
    let resolver = HickoryTxtResolver::with_nameservers(&[dns.addr]);
    let name = "_launchdir-verification.acme.test";
    assert_eq!(resolver.txt(name).await, TxtLookup::None, "no record yet");
    dns.add_txt(name, &["v=spf1 -all"]).await;
    dns.add_txt(name, &["launchdir-verif", "ication=tok"]).await;
    let TxtLookup::Records(mut records) = resolver.txt(name).await else { panic!("records expected") };
    records.sort();
    assert_eq!(records, vec![vec!["launchdir-verif".to_owned(), "ication=tok".to_owned()], vec!["v=spf1 -all".to_owned()]]);

    dns.add_txt("_proof.other.test", &["launchdir-verification=via-cname"]).await;
    dns.set_cname("_launchdir-verification.www.acme.test", "_proof.other.test").await;
    assert_eq!(
        resolver.txt("_launchdir-verification.www.acme.test").await,
        TxtLookup::Records(vec![vec!["launchdir-verification=via-cname".to_owned()]])
    );
    assert!(matches!(resolver.txt(SERVFAIL_NAME).await, TxtLookup::Failed(why) if why.contains("SERVFAIL")));
    assert!(matches!(resolver.txt("_x.not-served.test").await, TxtLookup::Failed(_)), "REFUSED is no answer");
}

#[tokio::test]
async fn a_server_that_does_not_answer_is_a_failure_not_none() {
    // A bound UDP socket that never answers.
    let silent = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let resolver = HickoryTxtResolver::with_nameservers(&[silent.local_addr().unwrap()]);
    assert!(matches!(resolver.txt("_launchdir-verification.acme.test").await, TxtLookup::Failed(_)));
}
