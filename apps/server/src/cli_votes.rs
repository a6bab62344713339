//! The site team's vote commands: `votes suspicious` lists what the fraud rules flag, `votes
//! discount ID` stops a vote from counting. Both go through the listings domain's vote use case.

use crate::startup::Services;
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
            let votes = services.app.votes.suspicious(days.clamp(1, 365), burst, time::Duration::minutes(window_minutes.max(1))).await?;
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
            if services.app.votes.discount(id).await? {
                println!("vote {id} no longer counts");
                Ok(())
            } else {
                anyhow::bail!("no counted vote has id {id}")
            }
        }
    }
}
