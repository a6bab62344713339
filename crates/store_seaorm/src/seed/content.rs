//! Demo blog posts and founder stories (part of `seed::demo`).

use crate::entity::{billboard_contribution, blog_post, listing, listing_metric, listing_story};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, NotSet, QueryFilter, QueryOrder, QuerySelect, Set};
use serde_json::json;
use std::collections::HashSet;
use time::{Duration, OffsetDateTime};

struct DemoPost {
    slug: &'static str,
    title: &'static str,
    summary: &'static str,
    tags: &'static [&'static str],
    /// Days before the seed's `now`; negative is in the future (scheduled), `None` a draft.
    days_ago: Option<i64>,
    body: &'static str,
    faqs: &'static [(&'static str, &'static str)],
}

const POSTS: &[DemoPost] = &[
    DemoPost {
        slug: "how-launch-weeks-work",
        title: "How launch weeks work",
        summary: "Every product launches in a week that runs Monday to Sunday. Here is how the calendar, votes and awards fit together.",
        tags: &["launching", "calendar"],
        days_ago: Some(3),
        body: "# How launch weeks work\n\nEvery launch on the directory belongs to a **launch week**, Monday to Sunday.\n\n\
               - Free launches are queued six to eight weeks ahead and go live once our badge is on your homepage.\n\
               - Paid launches go live at once, or in the week you choose.\n\n\
               During the week people vote on the site. When the week ends, the three products with the most votes \
               become *Launch of the Week* #1, #2 and #3.\n",
        faqs: &[
            ("When does a launch week start?", "On Monday at 00:00 in the site's launch time zone."),
            (
                "Can I move my launch week?",
                "A free launch can skip the queue with the skip_queue product; a paid launch picks its week when buying.",
            ),
        ],
    },
    DemoPost {
        slug: "writing-a-tagline-people-remember",
        title: "Writing a tagline people remember",
        summary: "Seven words or fewer, one promise, no jargon: a short guide to the line that sells your product.",
        tags: &["copywriting"],
        days_ago: Some(11),
        body: "# Writing a tagline people remember\n\nA tagline has one job: make the right person want to know more.\n\n\
               1. Name the outcome, not the feature.\n2. Keep it under seven words.\n3. Read it aloud to someone outside your field.\n\n\
               > \"Invoices that chase themselves\" beats \"AI-powered accounts receivable automation\".\n",
        faqs: &[("How long should a tagline be?", "Short enough to read at a glance: most good ones have fewer than seven words.")],
    },
    DemoPost {
        slug: "preparing-your-homepage-for-launch-day",
        title: "Preparing your homepage for launch day",
        summary: "What visitors from a launch directory look for in the first ten seconds, and how to give it to them.",
        tags: &["launching", "website"],
        days_ago: Some(24),
        body: "# Preparing your homepage for launch day\n\nVisitors arrive curious and impatient. Above the fold, show:\n\n\
               - what the product does, in one sentence;\n- who it is for;\n- one clear next step.\n\n\
               Put pricing one click away. If you offer a free plan, say so early.\n",
        faqs: &[("Should I add a launch-day discount?", "Only if you would honour it for everyone who asks afterwards.")],
    },
    DemoPost {
        slug: "why-we-quote-your-website",
        title: "Why every draft quotes your website",
        summary: "Drafted profiles only say what your own site says, with the quote to prove it. Here is why.",
        tags: &["product", "trust"],
        days_ago: Some(37),
        body: "# Why every draft quotes your website\n\nWhen you submit a product, we read your site (respecting robots.txt) \
               and draft a profile. Every value carries a quote from a page of your site. Anything we cannot find is left \
               blank and listed as *not found on website*: we never invent a fact about your company.\n",
        faqs: &[
            (
                "What if my site does not state our founding year?",
                "The field stays empty and is listed under not_found_on_website until you add it.",
            ),
            ("Do you read pages blocked by robots.txt?", "No. A disallowed page is never fetched."),
        ],
    },
    DemoPost {
        slug: "understanding-the-leaderboards",
        title: "Understanding the leaderboards",
        summary: "Community votes, the paid billboard, Domain Rating and revenue: four rankings, four different questions.",
        tags: &["rankings"],
        days_ago: Some(52),
        body: "# Understanding the leaderboards\n\n| board | what it ranks |\n|---|---|\n| community | votes from people on the site |\n\
               | billboard | money contributed (always labelled paid) |\n| domain rating | a third-party authority metric |\n\
               | revenue | reported revenue |\n\nOnly community votes decide the weekly awards.\n",
        faqs: &[(
            "Can money buy a Launch of the Week award?",
            "No. Awards follow community votes only; the billboard is a separate, clearly paid ranking.",
        )],
    },
    DemoPost {
        slug: "pricing-pages-that-convert",
        title: "Pricing pages that convert",
        summary: "Three plans, one highlighted, and the question every visitor asks answered before they ask it.",
        tags: &["pricing", "website"],
        days_ago: Some(70),
        body: "# Pricing pages that convert\n\nMost visitors compare two things: the plan they can afford and the one just above it.\n\n\
               - Highlight one plan.\n- State what happens when a trial ends.\n- Show prices with and without VAT where it applies.\n",
        faqs: &[("Should prices include VAT?", "Show what the buyer pays; for businesses, show the price before VAT as well.")],
    },
    DemoPost {
        slug: "claiming-your-listing",
        title: "Claiming a listing of your company",
        summary: "Prove you control the domain with a DNS record, a meta tag, a file or an e-mail, and manage the listing yourself.",
        tags: &["ownership"],
        days_ago: Some(95),
        body: "# Claiming a listing of your company\n\nIf your product is already listed, claim it. Choose one proof:\n\n\
               1. a DNS TXT record,\n2. a meta tag on your homepage,\n3. a file under `/.well-known/`,\n4. a link sent to an address at your domain.\n\n\
               A verified claim lets you edit the listing. It is not the same as a paid listing.\n",
        faqs: &[("How long does a claim stay open?", "Fourteen days; after that, start a new one.")],
    },
    DemoPost {
        slug: "founder-stories-worth-reading",
        title: "Founder stories worth reading",
        summary: "What makes a founder story useful to other builders: the problem, the turning points, the lessons.",
        tags: &["founders", "stories"],
        days_ago: Some(130),
        body: "# Founder stories worth reading\n\nThe best stories are specific. Say what you tried, what failed and what you would do again.\n\n\
               Founders can publish a story with their listing: why they started, the problem, the journey, challenges, \
               achievements, lessons and what comes next.\n",
        faqs: &[("Where do founder stories appear?", "On the listing and on each founder's profile once published.")],
    },
    DemoPost {
        slug: "using-the-api-and-mcp-tools",
        title: "Using the API and the MCP tools",
        summary: "Every operation of the directory is a REST endpoint and an MCP tool of the same name.",
        tags: &["api", "developers"],
        days_ago: Some(160),
        body: "# Using the API and the MCP tools\n\nStart with `GET /api/v1/site`: it tells you where the OpenAPI document and the \
               tool server are. Public reads need no key. For your account, create an API key and send it as \
               `Authorization: Bearer <key>`.\n",
        faqs: &[("Can I vote through the API?", "No. Votes come only from people on the site.")],
    },
    DemoPost {
        slug: "a-year-of-launches",
        title: "A year of launches",
        summary: "Looking back at the categories that grew fastest and what the most-voted launches had in common.",
        tags: &["community"],
        days_ago: Some(300),
        body: "# A year of launches\n\nDeveloper tools and productivity apps led the calendar. The most-voted launches shared three traits: \
               a clear tagline, a working demo and founders who answered every comment.\n",
        faqs: &[],
    },
    DemoPost {
        slug: "coming-soon-badge-redesign",
        title: "Coming soon: new badge designs",
        summary: "New shapes and a dark mode for embeddable badges.",
        tags: &["badges"],
        days_ago: Some(-7),
        body: "# New badge designs\n\nScheduled post: not public until its date.\n",
        faqs: &[],
    },
    DemoPost {
        slug: "draft-notes-on-moderation",
        title: "Draft: notes on moderation",
        summary: "An unpublished draft.",
        tags: &["draft"],
        days_ago: None,
        body: "# Notes on moderation\n\nA draft that is never shown.\n",
        faqs: &[],
    },
];

pub(crate) async fn seed_blog(db: &impl ConnectionTrait, now: OffsetDateTime) -> Result<usize, DbErr> {
    let existing: HashSet<String> =
        blog_post::Entity::find().select_only().column(blog_post::Column::Slug).into_tuple::<String>().all(db).await?.into_iter().collect();
    let mut written = 0;
    for post in POSTS.iter().filter(|post| !existing.contains(post.slug)) {
        let published_at = post.days_ago.map(|days| now - Duration::days(days));
        let faqs: Vec<_> = post.faqs.iter().map(|(question, answer)| json!({"question": question, "answer": answer})).collect();
        blog_post::ActiveModel {
            slug: Set(post.slug.to_owned()),
            title: Set(post.title.to_owned()),
            summary: Set(post.summary.to_owned()),
            body_markdown: Set(post.body.to_owned()),
            faqs: Set(json!(faqs)),
            author_name: Set("The Launchdir team".to_owned()),
            tags: Set(json!(post.tags)),
            published_at: Set(published_at),
            updated_at: Set(published_at.unwrap_or(now)),
            ..Default::default()
        }
        .insert(db)
        .await?;
        written += 1;
    }
    Ok(written)
}

/// Gives every 5th live demo listing a founder story (public only where the listing has the
/// story section unlocked), and one more listing an unpublished one.
pub(crate) async fn seed_stories(db: &impl ConnectionTrait, now: OffsetDateTime) -> Result<usize, DbErr> {
    let have: HashSet<i64> = listing_story::Entity::find()
        .select_only()
        .column(listing_story::Column::ListingId)
        .into_tuple::<i64>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let live: Vec<(i64, String)> = listing::Entity::find()
        .select_only()
        .column(listing::Column::Id)
        .column(listing::Column::Name)
        .filter(listing::Column::Status.eq("live"))
        .filter(listing::Column::Url.like("%.example"))
        .order_by_asc(listing::Column::Id)
        .into_tuple::<(i64, String)>()
        .all(db)
        .await?;
    let mut written = 0;
    for (n, (id, name)) in live.iter().enumerate().filter(|(n, _)| n % 5 == 0 || *n == 1) {
        if have.contains(id) {
            continue;
        }
        let published = n != 1;
        listing_story::ActiveModel {
            listing_id: Set(*id),
            title: Set(Some(format!("Why we built {name}"))),
            story: Set(Some(format!("{name} started as a weekend project and became a small, fictional company in the Launchdir demo."))),
            why_started: Set(Some("We kept solving the same problem by hand and wanted a tool that did it for us.".into())),
            problem: Set(Some("The existing tools were built for large teams and took weeks to set up.".into())),
            journey: Set(Some("Three prototypes, forty customer calls and one rewrite.".into())),
            challenges: Set(Some("Finding the first paying customers without an audience.".into())),
            achievements: Set(Some("A launch week in the top ten and customers in twelve countries.".into())),
            lessons: Set(Some("Talk to users before writing code, and ship before it feels ready.".into())),
            whats_next: Set(Some("An API and integrations with the tools our customers already use.".into())),
            published_at: Set(published.then(|| now - Duration::days(10 + n as i64))),
            updated_at: Set(now - Duration::days(10 + n as i64)),
        }
        .insert(db)
        .await?;
        written += 1;
    }
    Ok(written)
}

/// Demo Domain Ratings and revenue for live demo listings, and billboard contributions for
/// about one in nine of them. Values are derived from the listing id, so reruns agree.
pub(crate) async fn seed_rankings(db: &impl ConnectionTrait, now: OffsetDateTime) -> Result<(usize, usize), DbErr> {
    let with_metrics: HashSet<i64> = listing_metric::Entity::find()
        .select_only()
        .column(listing_metric::Column::ListingId)
        .into_tuple::<i64>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let contributed: HashSet<i64> = billboard_contribution::Entity::find()
        .select_only()
        .column(billboard_contribution::Column::ListingId)
        .into_tuple::<i64>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let live: Vec<i64> = listing::Entity::find()
        .select_only()
        .column(listing::Column::Id)
        .filter(listing::Column::Status.eq("live"))
        .filter(listing::Column::Url.like("%.example"))
        .order_by_asc(listing::Column::Id)
        .into_tuple::<i64>()
        .all(db)
        .await?;
    let metrics: Vec<listing_metric::ActiveModel> =
        live.iter().filter(|id| !with_metrics.contains(id)).map(|&id| metrics_of(id, now)).collect();
    let metrics_written = metrics.len();
    for chunk in metrics.chunks(200) {
        listing_metric::Entity::insert_many(chunk.to_vec()).exec(db).await?;
    }
    let contributions: Vec<billboard_contribution::ActiveModel> =
        live.iter().filter(|id| !contributed.contains(id)).flat_map(|&id| contributions_of(id, now)).collect();
    let contributions_written = contributions.len();
    for chunk in contributions.chunks(200) {
        billboard_contribution::Entity::insert_many(chunk.to_vec()).exec(db).await?;
    }
    Ok((metrics_written, contributions_written))
}

/// A listing's fictional Domain Rating and revenue (two listings in five report revenue),
/// made from its id so every seed gives the same.
pub(crate) fn metrics_of(id: i64, now: OffsetDateTime) -> listing_metric::ActiveModel {
    let rating = (id * 37 % 90 + 1) as i32;
    // Every tenth listing was rated once only, so it has no trend yet.
    let previous = (id % 10 != 0).then(|| (rating + (id % 7) as i32 - 3).clamp(0, 100));
    let reports_revenue = id % 5 < 2;
    listing_metric::ActiveModel {
        listing_id: Set(id),
        domain_rating: Set(Some(rating)),
        domain_rating_previous: Set(previous),
        domain_rating_checked_at: Set(Some(now - Duration::days(id % 30))),
        monthly_revenue_cents: Set(reports_revenue.then_some(id * 7919 % 8_000_000 + 10_000)),
        revenue_verified: Set(reports_revenue && id % 3 == 0),
        revenue_reported_at: Set(reports_revenue.then(|| now - Duration::days(id % 40))),
        // The listing's state, taken by a trigger.
        live: NotSet,
    }
}

/// A listing's fictional billboard contributions: one to three for every ninth listing.
pub(crate) fn contributions_of(id: i64, now: OffsetDateTime) -> impl Iterator<Item = billboard_contribution::ActiveModel> {
    let count = if id % 9 == 0 { 1 + id % 3 } else { 0 };
    (0..count).map(move |n| billboard_contribution::ActiveModel {
        listing_id: Set(id),
        amount_cents: Set((id * 131 % 200 + 5) * 100 + n * 250),
        created_at: Set(now - Duration::days(id % 60 + n)),
        ..Default::default()
    })
}

/// Profile details for demo listings that have none yet: features, FAQs, socials, links, what
/// the site did not state, paid-only sections for paid listings, updates and reviews.
pub(crate) async fn seed_profiles(db: &impl ConnectionTrait, now: OffsetDateTime) -> Result<usize, DbErr> {
    use crate::entity::{listing_milestone, listing_update, review, user, vote};
    use sea_orm::sea_query::Expr;
    let rows = listing::Entity::find()
        .filter(listing::Column::Url.like("%.example"))
        .filter(listing::Column::Features.is_null())
        .order_by_asc(listing::Column::Id)
        .all(db)
        .await?;
    let mut written = 0;
    for row in rows {
        let id = row.id;
        let name = row.name.clone();
        let paid = row.plan.as_deref() == Some("paid");
        let missing: Vec<&str> = [(id % 3 == 0, "founded_year"), (id % 4 == 0, "city"), (id % 5 == 0, "contact_email")]
            .into_iter()
            .filter_map(|(missing, field)| missing.then_some(field))
            .collect();
        let unlocked: Vec<&str> = if paid { vec!["story", "milestones", "media"] } else { Vec::new() };
        listing::Entity::update_many()
            .col_expr(listing::Column::PricingSummary, Expr::value(Some(format!("Free plan; paid plans from ${} a month.", 5 + id % 20))))
            .col_expr(
                listing::Column::Features,
                Expr::value(json!(["Set up in minutes", "Works with the tools you already use", "Export your data any time", "Team roles and permissions"])),
            )
            .col_expr(listing::Column::Usps, Expr::value(json!(["No credit card to start", "Privacy first: no tracking"])))
            .col_expr(listing::Column::Keywords, Expr::value(json!([name.to_lowercase(), "demo", "fictional"])))
            .col_expr(
                listing::Column::Faqs,
                Expr::value(json!([
                    {"question": format!("Is {name} a real product?"), "answer": "No. It is a fictional listing in the Launchdir demo directory."},
                    {"question": "Is there a free plan?", "answer": "Yes, with the core features and no time limit."}
                ])),
            )
            .col_expr(
                listing::Column::Socials,
                Expr::value(json!({"x": format!("https://x.com/{}", row.slug), "github": format!("https://github.com/{}", row.slug)})),
            )
            .col_expr(
                listing::Column::Links,
                Expr::value(json!([
                    {"label": "Pricing", "url": format!("{}/pricing", row.url)},
                    {"label": "Documentation", "url": format!("{}/docs", row.url)}
                ])),
            )
            .col_expr(listing::Column::NotFoundOnWebsite, Expr::value(json!(missing)))
            // What the site did not state stays empty.
            .col_expr(listing::Column::FoundedYear, Expr::value(if missing.contains(&"founded_year") { None } else { row.founded_year }))
            .col_expr(listing::Column::DemoVideoUrl, Expr::value((id % 2 == 0).then(|| format!("{}/demo.mp4", row.url))))
            .col_expr(listing::Column::UnlockedSections, Expr::value(json!(unlocked)))
            .filter(listing::Column::Id.eq(id))
            .exec(db)
            .await?;
        written += 1;
        if row.status != "live" {
            continue;
        }
        let launched = row.launched_at.unwrap_or(now);
        if id % 3 == 0 {
            for n in 0..1 + id % 2 {
                listing_update::ActiveModel {
                    listing_id: Set(id),
                    title: Set(format!("{name} {}.{} is out", 1 + n, id % 10)),
                    body: Set("Faster start-up, a new export format and many small fixes.".into()),
                    created_at: Set((launched + Duration::days(3 + n * 7)).min(now)),
                    ..Default::default()
                }
                .insert(db)
                .await?;
            }
        }
        if paid {
            listing_milestone::ActiveModel {
                listing_id: Set(id),
                date: Set(launched.date()),
                title: Set("Launched on Launchdir".into()),
                description: Set(Some("Our public launch.".into())),
                url: Set(None),
                created_at: Set(launched),
                ..Default::default()
            }
            .insert(db)
            .await?;
        }
        if id % 2 == 0 {
            // Some of the listing's voters leave a review.
            let reviewers: Vec<i64> = vote::Entity::find()
                .select_only()
                .column(vote::Column::UserId)
                .filter(vote::Column::ListingId.eq(id))
                .order_by_asc(vote::Column::Id)
                .limit(2 + (id % 5) as u64)
                .into_tuple::<i64>()
                .all(db)
                .await?;
            let known: HashSet<i64> = user::Entity::find()
                .select_only()
                .column(user::Column::Id)
                .filter(user::Column::Id.is_in(reviewers.clone()))
                .into_tuple::<i64>()
                .all(db)
                .await?
                .into_iter()
                .collect();
            for (n, reviewer) in reviewers.into_iter().filter(|r| known.contains(r)).enumerate() {
                review::ActiveModel {
                    listing_id: Set(id),
                    user_id: Set(reviewer),
                    rating: Set((3 + (id + n as i64) % 3) as i16),
                    body: Set(Some("Does what it says; setup took minutes.".into())),
                    hidden: Set(false),
                    created_at: Set((launched + Duration::days(1 + n as i64)).min(now)),
                    ..Default::default()
                }
                .insert(db)
                .await?;
            }
        }
    }
    Ok(written)
}

/// Owner-named alternatives for every fourth live demo listing: two approved, one not (yet).
pub(crate) async fn seed_alternatives(db: &impl ConnectionTrait) -> Result<usize, DbErr> {
    use crate::entity::listing_alternative;
    let have: HashSet<i64> = listing_alternative::Entity::find()
        .select_only()
        .column(listing_alternative::Column::ListingId)
        .into_tuple::<i64>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let live: Vec<i64> = listing::Entity::find()
        .select_only()
        .column(listing::Column::Id)
        .filter(listing::Column::Status.eq("live"))
        .filter(listing::Column::Url.like("%.example"))
        .order_by_asc(listing::Column::Id)
        .into_tuple::<i64>()
        .all(db)
        .await?;
    let mut rows = Vec::new();
    for (i, id) in live.iter().enumerate().filter(|(i, _)| i % 4 == 0) {
        if have.contains(id) || i + 3 >= live.len() {
            continue;
        }
        for (position, (other, approved)) in [(live[i + 1], true), (live[i + 2], true), (live[i + 3], false)].into_iter().enumerate() {
            rows.push(listing_alternative::ActiveModel {
                listing_id: Set(*id),
                alternative_id: Set(other),
                approved: Set(approved),
                position: Set(position as i32),
            });
        }
    }
    let written = rows.len();
    for chunk in rows.chunks(300) {
        listing_alternative::Entity::insert_many(chunk.to_vec()).exec(db).await?;
    }
    Ok(written)
}
