//! The public listing page is for visitors: what only owners need (the badges' embed code, the
//! fields the website did not state, where the launch stands) shows to owners alone; places,
//! platforms, fields and dates read as words.

use crate::helpers::spawn_empty_app;
use crate::reviews::page_of;
use crate::votes::{live_listing, person};
use sea_orm::ConnectionTrait;
use store_seaorm::testing::fixtures;

#[tokio::test]
async fn visitors_see_words_and_only_owners_see_the_embed_code_and_what_the_site_left_unsaid() {
    let app = spawn_empty_app().await;
    let db = app.services.store.connection();
    let id = live_listing(&app, "acme").await;
    db.execute_unprepared(&format!(
        "UPDATE listings SET country = 'DE', city = 'Berlin', not_found_on_website = '[\"usps\",\"founded_year\"]' WHERE id = {id}"
    ))
    .await
    .unwrap();
    let founder = fixtures::founder(db, id, "ada-lovelace", 0).await;
    db.execute_unprepared(&format!(
        "UPDATE founders SET country = 'PT', title = 'Maker', socials = '{{\"x\":\"https://x.com/ada\",\"github\":\"https://github.com/ada\"}}' WHERE id = {founder}"
    ))
    .await
    .unwrap();
    let owner = person(&app, 1, true, time::Duration::days(30)).await;
    fixtures::set_owner(db, id, owner.user.get()).await;
    let posted =
        app.services.app.listings.owners.post_update(owner.user, kernel::ListingId::new(id), "Version 2", "Faster.").await.unwrap().1;
    let stranger = person(&app, 2, true, time::Duration::days(30)).await;

    let anonymous = app.client.get(app.url("/listings/acme")).send().await.unwrap().text().await.unwrap();
    let signed_in = page_of(&app, &stranger, "acme").await;
    for (who, page) in [("someone signed out", &anonymous), ("someone else signed in", &signed_in)] {
        assert!(page.contains("<dd>Berlin, Germany</dd>"), "{who}: the country by its name");
        assert!(!page.contains("Embed code"), "{who}: no embed code");
        assert!(!page.contains("<textarea") || page.contains("review-body"), "{who}: no code to copy");
        assert!(!page.contains("Only you see"), "{who}: nothing meant for owners");
        assert!(!page.contains("usps") && !page.contains("founded year"), "{who}: no field names");
        assert!(page.contains("alt=\"Listed on"), "{who}: the badges themselves show");
        // Sharing is plain links to the sites' own share pages: nothing loads until followed.
        assert!(
            page.contains("https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Flaunch.example%2Flistings%2Facme"),
            "{who}: a LinkedIn share"
        );
        assert!(page.contains("https://x.com/intent/post?text=") && page.contains("%2Flistings%2Facme"), "{who}: an X share");
        assert!(page.contains("mailto:?subject="), "{who}: an e-mail share");
    }
    let owners = page_of(&app, &owner, "acme").await;
    assert!(owners.contains("Embed code for the"), "the owner copies the badge's code");
    assert!(owners.contains("does not state what sets it apart and year founded, so they are left blank"), "{owners}");
    let written = format!("{} {} {}", posted.day(), posted.month(), posted.year());
    assert!(owners.contains(&format!("<p class=\"muted\">{written}</p>")), "the update's date in words");
    assert!(!owners.contains(&posted.date().to_string()), "no machine date");

    let founder_page = app.client.get(app.url("/founders/ada-lovelace")).send().await.unwrap().text().await.unwrap();
    assert!(founder_page.contains(">X (Twitter)</a>") && founder_page.contains(">GitHub</a>"), "platforms by name");
    assert!(founder_page.contains("Maker · Portugal"), "the founder's country by name");
}
