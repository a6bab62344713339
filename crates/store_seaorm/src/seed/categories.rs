//! The demo directory's categories: two levels, each with its FAQs, and three opened recently
//! that hold no listing yet.

use serde_json::json;

pub(super) struct TopCategory {
    pub slug: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub children: &'static [(&'static str, &'static str, &'static str)],
}

pub(super) const CATEGORIES: &[TopCategory] = &[
    TopCategory {
        slug: "developer-tools",
        name: "Developer Tools",
        description: "Software that helps engineers write, test, ship and run code.",
        children: &[
            ("api-tools", "API Tools", "Design, mock, document and monitor APIs."),
            ("code-review", "Code Review", "Review pull requests faster and catch bugs before they ship."),
            ("testing-qa", "Testing & QA", "Automated tests, test management and quality assurance."),
            ("devops-hosting", "DevOps & Hosting", "Deploy, host and observe applications."),
        ],
    },
    TopCategory {
        slug: "productivity",
        name: "Productivity",
        description: "Tools that help people and teams get more done with less friction.",
        children: &[
            ("note-taking", "Note Taking", "Capture, organise and find notes and ideas."),
            ("task-management", "Task Management", "To-do lists, projects and team task boards."),
            ("calendars-scheduling", "Calendars & Scheduling", "Book meetings and plan time."),
            ("focus-time-tracking", "Focus & Time Tracking", "Track time and protect deep work."),
        ],
    },
    TopCategory {
        slug: "artificial-intelligence",
        name: "Artificial Intelligence",
        description: "Products built around machine learning and language models.",
        children: &[
            ("ai-writing", "AI Writing", "Draft, edit and summarise text with AI help."),
            ("ai-agents", "AI Agents", "Agents that carry out multi-step tasks on their own."),
            ("ai-image-video", "AI Image & Video", "Generate and edit images and video."),
            ("ml-ops", "ML Ops", "Train, evaluate, deploy and monitor models."),
        ],
    },
    TopCategory {
        slug: "marketing",
        name: "Marketing",
        description: "Reach customers: email, social, SEO, ads and analytics.",
        children: &[
            ("email-marketing", "Email Marketing", "Newsletters, campaigns and automations."),
            ("seo", "SEO", "Rank higher in search with audits, keywords and content."),
            ("social-media", "Social Media", "Schedule posts and grow audiences."),
            ("analytics", "Analytics", "Understand visitors, funnels and retention."),
        ],
    },
    TopCategory {
        slug: "design",
        name: "Design",
        description: "Tools for designers: interfaces, graphics, prototypes and assets.",
        children: &[
            ("ui-design", "UI Design", "Design interfaces and design systems."),
            ("prototyping", "Prototyping", "Clickable prototypes and user flows."),
            ("design-assets", "Design Assets", "Icons, illustrations, fonts and mock-ups."),
        ],
    },
    TopCategory {
        slug: "finance",
        name: "Finance",
        description: "Money tools for companies and people.",
        children: &[
            ("invoicing", "Invoicing", "Send invoices and get paid on time."),
            ("accounting", "Accounting", "Bookkeeping, expenses and reports."),
            ("personal-finance", "Personal Finance", "Budgets, savings and spending insight."),
        ],
    },
    TopCategory {
        slug: "sales-customer-success",
        name: "Sales & Customer Success",
        description: "Find, win and keep customers.",
        children: &[
            ("crm", "CRM", "Keep track of contacts, deals and pipelines."),
            ("customer-support", "Customer Support", "Help desks, live chat and knowledge bases."),
            ("lead-generation", "Lead Generation", "Find and qualify prospects."),
        ],
    },
    TopCategory {
        slug: "education",
        name: "Education",
        description: "Learn new skills and teach others.",
        children: &[
            ("online-courses", "Online Courses", "Create, sell and take courses."),
            ("language-learning", "Language Learning", "Learn and practise languages."),
        ],
    },
    TopCategory { slug: "health-fitness", name: "Health & Fitness", description: "Wellbeing, training and healthy habits.", children: &[] },
    TopCategory {
        slug: "hardware",
        name: "Hardware",
        description: "Devices and the software that runs them.",
        children: &[
            ("wearables", "Wearables", "Watches, rings and other devices worn on the body."),
            ("smart-home", "Smart Home", "Connected devices for the home."),
        ],
    },
];

/// Categories opened recently: no demo listing is placed in them, so the directory shows
/// what an empty category looks like (and `include_empty=false` has something to hide).
pub(super) const NEW_CATEGORIES: &[&str] = &["hardware", "wearables", "smart-home"];

pub(super) fn category_faqs(name: &str) -> serde_json::Value {
    json!([
        {
            "question": format!("How are products in {name} ranked?"),
            "answer": "Live listings are ordered by the votes people cast on the site. Paid placement never changes this order."
        },
        {
            "question": format!("How do I add my product to {name}?"),
            "answer": "Submit your website address; a draft profile is written from your site, you review it and choose this category."
        }
    ])
}
