//! Whose price a sentence states, and the pricing model the product's own sentences add up to.

use super::*;

#[test]
fn someone_elses_prices_are_not_the_products() {
    let names = ["Arbolog".to_owned()];
    for sentence in [
        "Twilio bills from $0.0079 per message.",
        "Unlike Mockforge at $99/month, you only pay for the requests you make.",
        "Arbolog backs up to Dropbox, which charges from £9.99 a month for its Plus plan.",
        "We pay the model provider about $0.02 per page.",
        "Other plant sensors we tried, like the Plantra Pro, cost US$129.",
        "Shipping to NZ is A$12.",
        "Rankhound starts from $129/month for one site.",
        "For comparison, Podmetrics charges $49/month for roughly what our Creator plan does.",
        "Shopify's Basic plan costs $39/month, billed by Shopify.",
        "It's a fraction of Notion's $10 plan.",
        "Arbolog syncs with Mailchimp ($29/month) out of the box.",
    ] {
        assert!(someone_elses_price(sentence, &names), "{sentence}");
    }
    assert!(!someone_elses_price("Arbolog Pro is £4 a month.", &names));
    assert!(!someone_elses_price("Pro is $12 a month for the whole team.", &names));
    assert!(!someone_elses_price("One Arbolog licence is A$79.", &names));
    assert!(!someone_elses_price("Professional is $29 per month.", &names));
    assert!(!someone_elses_price("Arbolog's Pro plan is $12 a month.", &names));
    assert!(!someone_elses_price("Pro ($12/month) adds shared projects.", &names));
    assert!(!someone_elses_price("Add another seat for $5/month.", &names));
    assert!(!someone_elses_price("Pro is $12/month with no other fees.", &names));
    // Letters whose lower case is shorter in bytes do not break the reading.
    let _ = someone_elses_price("GROẞE CAFÉ is €5 a month.", &names);
    assert!(!states_price("Arbolog helps 2,000 entrepreneurs across Europe."));
}

#[test]
fn free_tiers_are_stated_with_or_without_an_amount() {
    assert!(states_free_tier("Arbolog is free for up to 3 projects, with no time limit."));
    assert!(states_free_tier("Hollowtree costs nothing for students and teachers."));
    assert!(states_free_tier("It's free, and it will stay free."));
    assert!(!states_free_tier("Start your 14-day free trial."));
    assert!(!states_free_tier("Try everything free for 14 days. No card needed."));
    assert!(!states_free_tier("Shipping is free within Australia."));
}

#[test]
fn the_model_follows_the_products_own_sentences() {
    let model = |sentences: &[&str]| pricing_model(sentences).map(|(model, _)| model);
    assert_eq!(model(&["Arbolog is free for up to 3 projects.", "Arbolog Pro is £4 a month."]), Some("freemium"));
    assert_eq!(model(&["Free up to 10,000 requests a month.", "Then $0.50 per 1,000 requests."]), Some("usage_based"));
    assert_eq!(model(&["Cinderpad costs €39, one time."]), Some("one_time"));
    assert_eq!(model(&["One sensor is A$79.", "You pay once: the app is free and there's no subscription, ever."]), Some("one_time"));
    assert_eq!(model(&["It's $19 a month, or $190 a year."]), Some("subscription"));
    assert_eq!(model(&["Try it free for 30 days.", "Then $12 a month."]), Some("free_trial"));
    assert_eq!(model(&["It's free, and it will stay free."]), Some("free"));
    assert_eq!(model(&["Please contact us for a quotation."]), Some("contact_sales"));
    assert_eq!(
        model(&[
            "Corvidly is priced per completed task.",
            "The first 100 tasks each month are free, and every task after that costs $0.10."
        ]),
        Some("usage_based")
    );
    assert_eq!(model(&["Every plan begins with a 30-day free trial.", "$29 per month."]), Some("free_trial"));
    assert_eq!(model(&["Free", "Free forever for one brand.", "$15 a month."]), Some("freemium"));
    assert_eq!(
        model(&["Free forever for up to 10,000 events.", "$29/month.", "Start with a 14-day free trial of Team."]),
        Some("freemium")
    );
    assert_eq!(model(&["Try everything free for 14 days.", "After the trial, Basic is $12 per agent per month."]), Some("free_trial"));
    assert_eq!(model(&["Includes one free accountant seat.", "$29 per month."]), Some("subscription"));
    assert!(states_paid_price("every task after that costs $0.10") && !states_paid_price("Hobby: $0"));
    assert!(states_paid_price("USD 15/mo per seat") && states_paid_price("4.50 $ a month") && !states_paid_price("0 $ for students"));
    assert_eq!(pricing_model(&["Starter — free", "USD 15/mo per seat"]).map(|(model, _)| model), Some("freemium"));
    let names = ["Arbolog".to_owned()];
    assert!(someone_elses_price("we refund the months you did not use, for example 30 $ if you cancel", &names));
    assert!(!someone_elses_price("Every lookup and every SIM-swap check costs $0.002 per request.", &names));
    assert!(!someone_elses_price("If you prefer a predictable bill, plans start from $5 a month.", &names));
    assert!(someone_elses_price("Rankhound starts from $129/month.", &names));
    assert!(someone_elses_price("Maybe you saw Arbolog on DealBarn for 29 $ lifetime.", &names));
    assert!(someone_elses_price("RosterBridge, who built the connector, charge hospitals a one-off €450 set-up fee.", &names));
    assert!(someone_elses_price("Kellokortti, which we used at my old agency, costs €11 per user per month.", &names));
    assert!(someone_elses_price("It needs the PayLoom card reader, which PayLoom sell for £29.", &names));
    assert!(someone_elses_price("Arbolog works with the PayLoom card reader, which PayLoom sell for £29.", &names));
    assert!(someone_elses_price("Back in 2019 the Studio plan cost £15 per user per month.", &names));
    assert!(someone_elses_price("A video call with a food photographer, worth $300, comes with the yearly plan.", &names));
    assert!(!someone_elses_price("Arbolog Pro, which we built for teams, costs €11 per user per month.", &names));
    let long = "The Studio plan is £24 per user per month and adds deposits and balances, text reminders the day before a \
                fitting, a second workroom and reports on how long each type of alteration really takes.";
    assert_eq!(price_clause(long), "The Studio plan is £24 per user per month");
    assert!(!someone_elses_price("The Bench plan is £12 per user per month and covers customers.", &names));
    assert_eq!(price_clause("Pro is $9 a month, billed yearly."), "Pro is $9 a month, billed yearly.");
    assert!(!someone_elses_price("One Arbolog sensor costs £129 including VAT, with free delivery anywhere in the UK.", &names));
    assert_eq!(
        pricing_model(&["One sensor costs £129 including VAT.", "That's it: no subscription, and the app is free."]).map(|(m, _)| m),
        Some("one_time")
    );
    assert!(someone_elses_price("Most hosted changelog tools start around $35 a month.", &names));
    assert!(someone_elses_price("Arbolog runs on models; the model costs us $3 per million tokens.", &names));
    assert!(someone_elses_price("With a classic monitoring service, the same checks can cost around €29 per 10,000 runs.", &names));
    assert!(someone_elses_price("Arbolog is also part of the Appshelf bundle ($11.99 a month for 200 apps).", &names));

    let names = ["Arbolog".to_owned()];
    assert!(someone_elses_price("It is available as an add-on for EUR 29 per month and is invoiced by Stellenwerk directly.", &names));
    assert!(someone_elses_price("Remindly Pro €29 a month 300 included, then 8 cents", &names));
    assert!(!someone_elses_price("Pro $12 a month", &names));
    assert!(states_paid_price("2 cents per SMS"));
    assert_eq!(pricing_model(&["$79 once, with a year of updates."]).map(|(m, _)| m), Some("one_time"));
    assert!(!states_free_tier("If you pay for the year it is $70 a year, so two months are free."));
    assert_eq!(pricing_model(&["Free", "9.99 USD per month"]).map(|(m, _)| m), Some("freemium"));
    assert_eq!(pricing_model(&["EUR 4.50 per user and month."]).map(|(m, _)| m), Some("subscription"));
    assert_eq!(pricing_model(&["2 cents per SMS, no monthly fee."]).map(|(m, _)| m), Some("usage_based"));
    assert_eq!(pricing_model(&["No trial.", "Hawthorny costs $7 a month per translator."]).map(|(m, _)| m), Some("subscription"));
    assert!(!free_plan_card("Free"));
    assert!(states_pricing_terms("You pay once, inside the app, and every lesson is yours."));
    assert_eq!(
        pricing_model(&["Arbolog is pay what you can, minimum £3.", "You pay once, inside the app."]).map(|(m, _)| m),
        Some("one_time")
    );
    assert!(!states_pricing_terms("Pekka was her neighbour who asked one time why she has eleven spreadsheets open."));
}

#[test]
fn backers_partners_old_prices_and_other_kinds_of_products_are_not_the_products_price() {
    let names = ["Bittern".to_owned()];
    let own = |sentence: &'static str| own_price_sentences(sentence, true, &names);
    assert_eq!(
        own("Bittern Full: €8 a month, or €72 a year."),
        ["Bittern Full: €8 a month, or €72 a year."],
        "a plan named after the product"
    );
    assert!(own("Our early backers on Kickstarter paid NZ$99 for the very first batch.").is_empty());
    assert!(own("If you need backlink data, our partner Linkmoor charges $99 a month.").is_empty());
    assert!(own("When we started, Bittern cost $19 a month, and it did a lot less.").is_empty());
    assert!(own("A running watch that measures the same things starts at around NZ$600.").is_empty());
}
