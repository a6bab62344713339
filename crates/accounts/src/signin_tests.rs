//! Sign-in against in-memory stores and a hasher that counts: one verification on every path,
//! the dummy where there is no real hash, and the throttle per client.

use super::*;
use crate::fakes::Memory;
use crate::passwords::{argon2_hash, argon2_verify};
use kernel::FixedClock;
use std::sync::atomic::{AtomicUsize, Ordering};
use time::macros::datetime;

/// Real argon2, counting verifications and remembering the hashes it was given.
#[derive(Default)]
struct Counting {
    verified: AtomicUsize,
    against: Mutex<Vec<String>>,
}

#[async_trait]
impl PasswordHashing for Counting {
    async fn hash(&self, password: String) -> Option<String> {
        argon2_hash(&password)
    }
    async fn verify(&self, password: String, phc: String) -> bool {
        self.verified.fetch_add(1, Ordering::SeqCst);
        self.against.lock().unwrap().push(phc.clone());
        argon2_verify(&password, &phc)
    }
}

fn setup() -> (SignInService, Arc<Memory>, Arc<Counting>, Arc<FixedClock>) {
    let memory = Arc::new(Memory::default());
    let hasher = Arc::new(Counting::default());
    let clock = Arc::new(FixedClock::new(datetime!(2026-11-24 09:00 UTC)));
    let service = SignInService::new(memory.clone(), memory.clone(), memory.clone(), hasher.clone(), clock.clone());
    (service, memory, hasher, clock)
}

const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(198, 51, 100, 4));
const ATTACKER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(203, 0, 113, 9));

#[tokio::test]
async fn every_failure_path_verifies_one_hash() {
    let (service, memory, hasher, _) = setup();
    service.sign_up("ada@example.com", "Ada", "a good long password").await.unwrap();
    memory
        .create(NewUser {
            email: Email::parse("nopass@example.com").unwrap(),
            display_name: "No".into(),
            created_at: OffsetDateTime::UNIX_EPOCH,
        })
        .await
        .unwrap();
    for (email, password) in [
        ("ada@example.com", "a wrong password"),
        ("nobody@example.com", "a good long password"),
        ("nopass@example.com", "a good long password"),
        ("not an address", "a good long password"),
        (&"x".repeat(15_000), "p"),
    ] {
        let before = hasher.verified.load(Ordering::SeqCst);
        assert!(matches!(service.sign_in(HOME, email, password).await, Err(SignInError::WrongCredentials)));
        assert_eq!(hasher.verified.load(Ordering::SeqCst), before + 1, "one verification for {}", &email[..email.len().min(30)]);
    }
    let against = hasher.against.lock().unwrap().clone();
    assert_ne!(against[0], dummy_hash(), "a real account is checked against its own hash");
    assert!(against[1..].iter().all(|hash| hash == dummy_hash()), "no hash: the dummy");
    assert!(service.sign_in(HOME, "ada@example.com", "a good long password").await.is_ok());
}

#[tokio::test]
async fn a_guesser_waits_and_the_owner_elsewhere_does_not() {
    let (service, _, hasher, clock) = setup();
    service.sign_up("ada@example.com", "Ada", "a good long password").await.unwrap();
    for _ in 0..5 {
        assert!(matches!(service.sign_in(ATTACKER, "ada@example.com", "guess").await, Err(SignInError::WrongCredentials)));
    }
    let verified = hasher.verified.load(Ordering::SeqCst);
    let refused = service.sign_in(ATTACKER, "ada@example.com", "a good long password").await;
    assert!(matches!(refused, Err(SignInError::Throttled { seconds: 30 })), "{refused:?}");
    assert_eq!(hasher.verified.load(Ordering::SeqCst), verified, "a throttled attempt costs no hash");
    assert!(service.sign_in(HOME, "ada@example.com", "a good long password").await.is_ok(), "the owner signs in from home");
    // The wait ends by itself: a backoff, not a lock.
    clock.advance(Duration::seconds(31));
    assert!(service.sign_in(ATTACKER, "ada@example.com", "a good long password").await.is_ok());
}

#[tokio::test]
async fn registering_a_taken_address_answers_with_its_owner_and_changes_nothing() {
    let (service, memory, _, _) = setup();
    let Registered::New(ada) = service.register("ada@example.com", "Ada", "a good long password").await.unwrap() else {
        panic!("a new address makes a new account");
    };
    assert!(memory.sessions.lock().unwrap().is_empty(), "registering signs nobody in");
    let again = service.register(" ADA@example.com", "Mallory", "mallory's own password").await.unwrap();
    let Registered::Taken(owner) = again else { panic!("the address is taken") };
    assert_eq!((owner.id, owner.display_name.as_str()), (ada.id, "Ada"), "the owner's account, untouched");
    assert_eq!(memory.users.lock().unwrap().len(), 1);
    assert_eq!(memory.passwords.lock().unwrap().len(), 1, "no second password stored");
    assert!(memory.sessions.lock().unwrap().is_empty());
    assert!(matches!(service.sign_in(HOME, "ada@example.com", "mallory's own password").await, Err(SignInError::WrongCredentials)));
    assert!(service.sign_in(HOME, "ada@example.com", "a good long password").await.is_ok());
    // The shortcut for tests and tools still says so.
    assert!(matches!(service.sign_up("ada@example.com", "Ada", "a good long password").await, Err(SignInError::EmailTaken)));
}
