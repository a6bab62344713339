//! The pictures a draft proposes: the product's logo and up to six screenshots the site itself
//! shows as its product, each kept by us (the media domain) with the page it came from as
//! evidence. The maker keeps, drops, orders and adds to them; a submitted draft gives its
//! listing the kept logo and the kept screenshots as its gallery.

use crate::DraftError;
use crate::model::DraftId;
use crate::model::{Basis, Evidence};
use crate::site::{Page, SiteSnapshot};
use kernel::{FieldError, ImageRef, RepoError, UserId, WebUrl};
use serde::{Deserialize, Serialize};

/// The most screenshots a draft proposes from the site.
pub const MAX_FOUND_SCREENSHOTS: usize = 6;
/// The most pictures a draft holds: a logo and the gallery's eight.
pub const MAX_PICTURES: usize = 1 + listings::GalleryImage::MAX_IMAGES;

/// What a picture is to the listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PictureRole {
    Logo,
    Screenshot,
}

/// A picture of a draft.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftPicture {
    pub image: ImageRef,
    pub role: PictureRole,
    /// The page that shows it and how (`og:image`, its alt text); `None` for one the maker
    /// uploaded.
    pub evidence: Option<Evidence>,
    /// Where the picture itself was fetched from; `None` for an upload.
    pub source: Option<String>,
    /// What it shows, for people who cannot see it.
    pub alt: String,
    /// Whether the listing gets it (the maker may drop a found picture and keep it in view).
    pub kept: bool,
}

/// A picture worth fetching, found on a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PictureCandidate {
    pub role: PictureRole,
    /// The picture's own address.
    pub url: String,
    pub evidence: Evidence,
    pub alt: String,
}

/// Words in an image's class, id or alt text that say it is no picture of the product.
const NOT_THE_PRODUCT: &[&str] =
    &["avatar", "icon", "team", "testimonial", "partner", "customer", "client", "badge", "flag", "emoji", "author", "sponsor", "award"];
/// Words that say it is.
const THE_PRODUCT: &[&str] =
    &["screenshot", "screen", "hero", "gallery", "preview", "product", "demo", "dashboard", "app", "interface", "ui"];

fn is_web_address(url: &str) -> bool {
    (url.starts_with("https://") || url.starts_with("http://")) && url.len() <= 500
}

fn words(text: &str) -> Vec<String> {
    text.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

/// The logo first (JSON-LD `logo`, an `apple-touch-icon` or icon link, an image named a logo,
/// then `og:image` as the last resort), then up to six screenshots (the homepage's `og:image`
/// and images named or placed as the product's pictures), each with the page it came from.
pub fn candidates(site: &SiteSnapshot) -> Vec<PictureCandidate> {
    let mut found: Vec<PictureCandidate> = Vec::new();
    let logo = logo(site);
    let og = |page: &Page| page.open_graph.get("og:image").filter(|url| is_web_address(url)).cloned();
    if let Some(logo) = logo.or_else(|| {
        let home = site.pages.first()?;
        let url = og(home)?;
        Some(PictureCandidate {
            role: PictureRole::Logo,
            evidence: Evidence::new(&home.url, "og:image", Basis::Metadata),
            alt: String::new(),
            url,
        })
    }) {
        found.push(logo);
    }
    let taken = |found: &[PictureCandidate], url: &str| found.iter().any(|c| c.url == url);
    // A picture the site gives no words for is described by where it is: the maker can say more.
    let described = |alt: &str, page: &Page| match (alt.trim(), &page.title) {
        ("", Some(title)) if !title.trim().is_empty() => format!("A picture from the page {}", title.trim()),
        ("", _) => format!("A picture from {}", page.url),
        (alt, _) => alt.to_owned(),
    };
    for page in &site.pages {
        if let Some(url) = og(page).filter(|url| !taken(&found, url)) {
            let alt = described(page.open_graph.get("og:image:alt").map_or("", String::as_str), page);
            found.push(PictureCandidate {
                role: PictureRole::Screenshot,
                evidence: Evidence::new(&page.url, "og:image", Basis::Metadata),
                alt,
                url,
            });
        }
        for image in &page.images {
            let named = words(&format!("{} {}", image.hint, image.alt));
            let shows_product = named.iter().any(|w| THE_PRODUCT.contains(&w.as_str()));
            let not_product = named.iter().any(|w| NOT_THE_PRODUCT.contains(&w.as_str()) || w == "logo");
            if shows_product && !not_product && is_web_address(&image.url) && !taken(&found, &image.url) {
                let quote = if image.alt.is_empty() { image.url.clone() } else { image.alt.clone() };
                found.push(PictureCandidate {
                    role: PictureRole::Screenshot,
                    evidence: Evidence::new(&page.url, quote, Basis::Metadata),
                    alt: described(&image.alt, page),
                    url: image.url.clone(),
                });
            }
        }
    }
    let logos = found.iter().filter(|c| c.role == PictureRole::Logo).count();
    found.truncate(logos + MAX_FOUND_SCREENSHOTS);
    found
}

fn logo(site: &SiteSnapshot) -> Option<PictureCandidate> {
    let candidate = |page: &Page, url: &str, quote: &str, basis: Basis| {
        is_web_address(url).then(|| PictureCandidate {
            role: PictureRole::Logo,
            url: url.to_owned(),
            evidence: Evidence::new(&page.url, quote, basis),
            alt: String::new(),
        })
    };
    for page in &site.pages {
        for object in &page.json_ld {
            let logo = object.get("logo").and_then(|logo| logo.as_str().or_else(|| logo.get("url").and_then(|url| url.as_str())));
            // JSON-LD addresses may be relative to the page, as the page's own links are.
            let logo = logo.and_then(|logo| kernel::WebUrl::parse(&page.url).ok()?.join(logo).ok());
            if let Some(found) = logo.and_then(|url| candidate(page, url.as_str(), "logo", Basis::StructuredData)) {
                return Some(found);
            }
        }
    }
    let home = site.pages.first()?;
    // The icon a site names for phones is its largest square logo; a favicon is the smallest.
    let icon = home.icons.iter().find(|url| url.contains("apple-touch")).or_else(|| home.icons.iter().find(|url| !url.ends_with(".ico")));
    if let Some(found) = icon.and_then(|url| candidate(home, url, "icon", Basis::Metadata)) {
        return Some(found);
    }
    home.images.iter().find(|image| words(&format!("{} {}", image.hint, image.alt)).iter().any(|w| w == "logo")).and_then(|image| {
        let quote = if image.alt.is_empty() { image.url.as_str() } else { image.alt.as_str() };
        candidate(home, &image.url, quote, Basis::Metadata)
    })
}

/// The longest alt text of a draft's picture.
pub const MAX_ALT_CHARS: usize = listings::GalleryImage::MAX_ALT_CHARS;

/// Checks pictures as a maker sends them: at most one logo and eight screenshots, alt text
/// within its bound and required for a kept screenshot, no picture twice.
pub fn check_pictures(pictures: &[DraftPicture], errors: &mut Vec<FieldError>) {
    let kept = |role| pictures.iter().filter(|p| p.kept && p.role == role).count();
    if kept(PictureRole::Logo) > 1 {
        errors.push(FieldError::new("pictures", "may keep one logo"));
    }
    if kept(PictureRole::Screenshot) > listings::GalleryImage::MAX_IMAGES {
        errors.push(FieldError::new("pictures", format!("may keep at most {} screenshots", listings::GalleryImage::MAX_IMAGES)));
    }
    if pictures.len() > MAX_PICTURES + MAX_FOUND_SCREENSHOTS {
        errors.push(FieldError::new("pictures", "has too many pictures; drop some"));
    }
    for (i, picture) in pictures.iter().enumerate() {
        let alt = picture.alt.trim().chars().count();
        if alt > MAX_ALT_CHARS {
            errors.push(FieldError::new(format!("pictures[{i}].alt"), format!("must be at most {MAX_ALT_CHARS} characters")));
        } else if alt == 0 && picture.kept && picture.role == PictureRole::Screenshot {
            errors.push(FieldError::new(format!("pictures[{i}].alt"), "must say what the picture shows (a screen reader reads it out)"));
        }
        if pictures[..i].iter().any(|earlier| earlier.image == picture.image) {
            errors.push(FieldError::new(format!("pictures[{i}].image"), "is among the pictures already"));
        }
    }
}

/// The pictures of a draft as its use cases fetch, keep and check them.
impl crate::DraftsService {
    /// The job `draft.pictures`: the site's pictures, read from the snapshot the crawl kept,
    /// unless the draft has pictures already (an earlier run, or the maker's).
    pub(crate) async fn collect_pictures(&self, id: DraftId) -> Result<(), DraftError> {
        let Some((draft, _)) = self.repo.get(id).await? else { return Ok(()) };
        let pictures = match self.repo.snapshot(id).await? {
            Some(snapshot) if draft.pictures.is_empty() => self.pictures_of(&snapshot).await,
            _ => Vec::new(),
        };
        self.modify(id, |draft| {
            if draft.pictures.is_empty() {
                draft.pictures = pictures.clone();
            }
            draft.looking_for_pictures = false;
        })
        .await
    }

    /// The logo and screenshots the site shows, fetched as its robots.txt allows and kept by
    /// the media domain (which refuses what is no safe picture). One that cannot be fetched or
    /// kept is left out; so is one too small to be what it is taken for (a tracking pixel).
    pub(crate) async fn pictures_of(&self, snapshot: &SiteSnapshot) -> Vec<crate::DraftPicture> {
        let mut pictures: Vec<crate::DraftPicture> = Vec::new();
        let max_bytes = self.media.limits().max_bytes;
        for candidate in candidates(snapshot) {
            let Ok(url) = WebUrl::parse(&candidate.url) else { continue };
            let bytes = match self.reader.picture(&url, max_bytes).await {
                Ok(bytes) => bytes,
                Err(failure) => {
                    tracing::info!(%url, %failure, "a picture of the site could not be fetched");
                    continue;
                }
            };
            let image = match self.media.keep(bytes.into()).await {
                Ok(image) => image,
                Err(error) => {
                    tracing::info!(%url, %error, "a picture of the site was not kept");
                    continue;
                }
            };
            let (min_width, min_height) = match candidate.role {
                PictureRole::Logo => (32, 32),
                PictureRole::Screenshot => (320, 180),
            };
            if image.width() < min_width || image.height() < min_height || pictures.iter().any(|p| p.image == image) {
                continue;
            }
            pictures.push(crate::DraftPicture {
                image,
                role: candidate.role,
                evidence: Some(candidate.evidence),
                source: Some(candidate.url),
                alt: candidate.alt,
                kept: true,
            });
        }
        pictures
    }

    /// Every picture an edit names that the draft does not hold must be an image we keep (an
    /// upload); each that is not is named (`pictures[2].image`).
    pub(crate) async fn check_uploads(&self, owner: UserId, id: DraftId, pictures: &[crate::edit::PictureEdit]) -> Result<(), DraftError> {
        let (draft, _) = self.load_owned(owner, id).await?;
        let mut errors = Vec::new();
        for (i, picture) in pictures.iter().enumerate() {
            if draft.pictures.iter().any(|held| held.image == picture.image) {
                continue;
            }
            match self.media.check(&picture.image).await {
                Ok(()) => {}
                Err(media::MediaError::Unknown) => {
                    errors.push(FieldError::new(format!("pictures[{i}].image"), media::MediaError::Unknown.to_string()))
                }
                Err(error) => return Err(DraftError::Repo(RepoError::backend(error))),
            }
        }
        if errors.is_empty() { Ok(()) } else { Err(DraftError::Invalid(errors)) }
    }
}

/// The pictures an edit lists, in its order: one the draft holds keeps its evidence and source
/// (and its role unless the edit names one); an upload is a screenshot unless named otherwise.
pub(crate) fn merge_pictures(held: &[crate::DraftPicture], edit: &[crate::edit::PictureEdit]) -> Vec<crate::DraftPicture> {
    edit.iter()
        .map(|picture| {
            let known = held.iter().find(|held| held.image == picture.image);
            crate::DraftPicture {
                image: picture.image,
                role: picture.role.or(known.map(|known| known.role)).unwrap_or(crate::PictureRole::Screenshot),
                evidence: known.and_then(|known| known.evidence.clone()),
                source: known.and_then(|known| known.source.clone()),
                alt: picture.alt.trim().to_owned(),
                kept: picture.kept,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::Image;

    fn page(url: &str) -> Page {
        Page { url: url.into(), ..Page::default() }
    }

    fn image(url: &str, alt: &str, hint: &str) -> Image {
        Image { url: url.into(), alt: alt.into(), hint: hint.into() }
    }

    #[test]
    fn the_logo_comes_first_then_the_sites_own_pictures_of_its_product() {
        let mut home = page("https://acme.example/");
        home.json_ld.push(serde_json::json!({"@type": "Organization", "logo": {"url": "https://acme.example/logo.svg"}}));
        home.open_graph.insert("og:image".into(), "https://acme.example/og.png".into());
        home.images = vec![
            image("https://acme.example/hero.png", "The Acme board", "hero-shot"),
            image("https://acme.example/ann.jpg", "Ann, our CTO", "team-avatar"),
            image("https://cdn.example/partner.png", "Partner logo", "partners"),
            image("https://acme.example/pixel.gif", "", "tracking"),
        ];
        let mut features = page("https://acme.example/features");
        features.images = (0..9).map(|n| image(&format!("https://acme.example/shot{n}.png"), &format!("Screen {n}"), "gallery")).collect();
        let site = SiteSnapshot { home_url: home.url.clone(), pages: vec![home, features], ..SiteSnapshot::default() };
        let found = candidates(&site);
        assert_eq!(found[0].role, PictureRole::Logo);
        assert_eq!((found[0].url.as_str(), found[0].evidence.basis), ("https://acme.example/logo.svg", Basis::StructuredData));
        let shots: Vec<&str> = found[1..].iter().map(|c| c.url.as_str()).collect();
        assert_eq!(shots[..2], ["https://acme.example/og.png", "https://acme.example/hero.png"]);
        assert_eq!(shots.len(), MAX_FOUND_SCREENSHOTS, "six at most");
        assert!(!shots.iter().any(|url| url.contains("ann") || url.contains("partner") || url.contains("pixel")));
        assert_eq!(found[2].evidence.url, "https://acme.example/");
        assert_eq!(found[2].evidence.quote, "The Acme board");
    }

    #[test]
    fn without_a_named_logo_an_icon_then_og_image_stands_in() {
        let mut home = page("https://acme.example/");
        home.icons = vec!["https://acme.example/favicon.ico".into(), "https://acme.example/apple-touch-icon.png".into()];
        let site = SiteSnapshot { pages: vec![home.clone()], ..SiteSnapshot::default() };
        assert_eq!(candidates(&site)[0].url, "https://acme.example/apple-touch-icon.png");
        home.icons.clear();
        home.open_graph.insert("og:image".into(), "https://acme.example/og.png".into());
        let site = SiteSnapshot { pages: vec![home], ..SiteSnapshot::default() };
        let found = candidates(&site);
        assert_eq!((found.len(), found[0].role, found[0].url.as_str()), (1, PictureRole::Logo, "https://acme.example/og.png"));
    }

    #[test]
    fn a_makers_pictures_are_checked() {
        let picture = |byte: u8, role, alt: &str| DraftPicture {
            image: ImageRef::new([byte; 32], kernel::ImageFormat::Jpeg, 800, 600),
            role,
            evidence: None,
            source: None,
            alt: alt.into(),
            kept: true,
        };
        let mut errors = Vec::new();
        check_pictures(&[picture(1, PictureRole::Logo, ""), picture(2, PictureRole::Screenshot, "The board")], &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        check_pictures(
            &[
                picture(1, PictureRole::Logo, ""),
                picture(2, PictureRole::Logo, ""),
                picture(3, PictureRole::Screenshot, " "),
                picture(3, PictureRole::Screenshot, "Again"),
            ],
            &mut errors,
        );
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["pictures", "pictures[2].alt", "pictures[3].image"]);
    }
}
