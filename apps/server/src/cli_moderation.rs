//! The site team's moderation commands: `votes suspicious` lists what the fraud rules flag,
//! `votes discount ID` stops a vote from counting; `reviews recent` lists the newest reviews,
//! `reviews hide ID` takes one off the site and the rating (`reviews show ID` undoes it). All go
//! through the listings domain's vote and review use cases.

use crate::wiring::Services;
use clap::Subcommand;
use time::format_description::well_known::Rfc3339;

#[derive(Debug, Subcommand)]
pub enum VotesCommand {
    /// Votes worth a look, newest first: uncounted ones (young accounts, discounted), bursts of
    /// accounts voting from one network, and accounts made together voting for one listing.
    Suspicious {
        /// How far back to look, in days.
        #[arg(long, default_value_t = 7)]
        days: i64,
        /// How many accounts make a burst.
        #[arg(long, default_value_t = 5)]
        burst: u32,
        /// Within how many minutes a burst happens.
        #[arg(long, default_value_t = 10)]
        window_minutes: i64,
    },
    /// Stops a vote from counting (it stays recorded); rankings follow at once.
    Discount { id: i64 },
}

pub async fn votes(services: &Services, command: VotesCommand) -> anyhow::Result<()> {
    match command {
        VotesCommand::Suspicious { days, burst, window_minutes } => {
            let votes =
                services.app.listings.votes.suspicious(days.clamp(1, 365), burst, time::Duration::minutes(window_minutes.max(1))).await?;
            if votes.is_empty() {
                println!("nothing suspicious in the last {days} days");
            }
            for vote in votes {
                let at = vote.at.format(&Rfc3339).unwrap_or_default();
                let account = vote.account_created_at.format(&Rfc3339).unwrap_or_default();
                let state = match (vote.counted, vote.discounted_at) {
                    (_, Some(_)) => "discounted",
                    (true, None) => "counted",
                    (false, None) => "not counted",
                };
                println!(
                    "{}\t{at}\t{}\tuser {} (account since {account})\tfrom {}\t{state}",
                    vote.id,
                    vote.listing,
                    vote.user,
                    vote.network.as_deref().unwrap_or("unknown")
                );
            }
            Ok(())
        }
        VotesCommand::Discount { id } => {
            if services.app.listings.votes.discount(id).await? {
                println!("vote {id} no longer counts");
                Ok(())
            } else {
                anyhow::bail!("no counted vote has id {id}")
            }
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum ReviewsCommand {
    /// The newest reviews, hidden ones included: id, listing, when, rating, author, state, text.
    Recent {
        #[arg(long, default_value_t = 50)]
        limit: u64,
    },
    /// Hides a review from everyone but its author; it stops counting toward the rating.
    Hide { id: i64 },
    /// Shows a hidden review again.
    Show { id: i64 },
}

pub async fn reviews(services: &Services, command: ReviewsCommand) -> anyhow::Result<()> {
    match command {
        ReviewsCommand::Recent { limit } => {
            let reviews = services.app.listings.reviews.recent(limit.clamp(1, 1000)).await?;
            if reviews.is_empty() {
                println!("no reviews yet");
            }
            for (listing, review) in reviews {
                let at = review.written_at.format(&Rfc3339).unwrap_or_default();
                let state = match (review.hidden, review.genuine) {
                    (true, _) => "hidden",
                    (false, true) => "counted",
                    (false, false) => "shown, not counted",
                };
                let text: String = review.body.chars().take(80).collect();
                println!("{}	{listing}	{at}	{}/5	{}	{state}	{text}", review.id, review.rating, review.author);
            }
            Ok(())
        }
        ReviewsCommand::Hide { id } | ReviewsCommand::Show { id } => {
            let hide = matches!(command, ReviewsCommand::Hide { .. });
            if services.app.listings.reviews.set_hidden(id, hide).await?.is_some() {
                println!("review {id} is {}", if hide { "hidden" } else { "shown again" });
                Ok(())
            } else {
                anyhow::bail!("no review has id {id}")
            }
        }
    }
}
