#![doc = include_str!("../README.md")]

pub mod catalog;
pub mod fulfilment;
pub mod invoices;
pub mod order;
pub mod payments;
pub mod ports;
pub mod quote;
pub mod service;
pub mod settlement;
pub mod vat;
pub mod vat_number;

pub use catalog::{CatalogService, Product, ProductOffer, ProductRepository, WeekPolicy, WeekRule};
pub use fulfilment::{FulfilLine, LineResult};
pub use invoices::{
    DocumentBody, DocumentKind, DocumentLine, DocumentPrinter, Invoice, InvoiceRepository, IssueCreditNote, IssueInvoice, NewDocument,
    Party, Seller,
};
pub use order::{Amounts, Billing, Line, Order, OrderLine, OrderNumber, OrderStatus, ProductKind, Quote, VatSummary};
pub use payments::{
    CompletedPayment, PaymentError, PaymentEvent, PaymentEventKind, PaymentProvider, PaymentSession, ReturnUrls, WebhookError,
};
pub use ports::{NewOrder, OrderRepository, OrderTask, Settled, Settlement};
pub use quote::{ItemRequest, MAX_EXTRA_CATEGORIES, OrderRequest};
pub use service::{Invoicing, ORDER_LIFETIME, OrderError, OrdersDeps, OrdersService};
pub use settlement::{ExpireOrders, ReconcilePayments, RefundPayment, WebhookOutcome, WebhookReceiveError, periodic_jobs};
pub use vat::{RegistryAnswer, VatNumberCheck, VatNumberRegistry, VatRate, VatRateEntry, VatRateRepository, VatTreatment, in_eu};
pub use vat_number::{VatNumber, VatNumberError};
