/*
 * Where demo players come from: language, currency, phone prefix and common names per locale, and how amounts
 * look in each currency.
 */

export interface Locale {
  language: string;
  currency: string;
  phonePrefix: string;
  first: readonly string[];
  last: readonly string[];
}

export const LOCALES: readonly Locale[] = [
  {
    language: "English",
    currency: "GBP",
    phonePrefix: "+44 7",
    first: ["Oliver", "Amelia", "Harry", "Isla", "Jack", "Emily", "George", "Ava"],
    last: ["Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Walker", "Wright"],
  },
  {
    language: "English",
    currency: "USD",
    phonePrefix: "+1 415",
    first: ["Liam", "Olivia", "Noah", "Emma", "James", "Sophia", "Lucas", "Mia"],
    last: ["Johnson", "Miller", "Davis", "Garcia", "Martinez", "Anderson", "Clark", "Lewis"],
  },
  {
    language: "German",
    currency: "EUR",
    phonePrefix: "+49 151",
    first: ["Lukas", "Hannah", "Felix", "Lena", "Jonas", "Marie", "Paul", "Lea"],
    last: ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Wagner", "Becker", "Hoffmann"],
  },
  {
    language: "Spanish",
    currency: "EUR",
    phonePrefix: "+34 6",
    first: ["Hugo", "Lucía", "Mateo", "Sofía", "Martín", "Martina", "Pablo", "Julia"],
    last: ["García", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Ruiz"],
  },
  {
    language: "Portuguese",
    currency: "BRL",
    phonePrefix: "+55 11 9",
    first: ["Miguel", "Alice", "Arthur", "Helena", "Heitor", "Laura", "Davi", "Valentina"],
    last: ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira"],
  },
  {
    language: "Swedish",
    currency: "SEK",
    phonePrefix: "+46 70",
    first: ["Elias", "Alma", "William", "Elsa", "Hugo", "Maja", "Noah", "Astrid"],
    last: ["Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsson", "Persson"],
  },
  {
    language: "Norwegian",
    currency: "NOK",
    phonePrefix: "+47 4",
    first: ["Jakob", "Nora", "Emil", "Ingrid", "Filip", "Sofie", "Aksel", "Emma"],
    last: ["Hansen", "Johansen", "Olsen", "Larsen", "Andersen", "Pedersen", "Nilsen", "Kristiansen"],
  },
  {
    language: "French",
    currency: "CAD",
    phonePrefix: "+1 514",
    first: ["Gabriel", "Léa", "Raphaël", "Chloé", "Louis", "Zoé", "Arthur", "Alice"],
    last: ["Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "Gauthier", "Morin", "Lavoie"],
  },
  {
    language: "Japanese",
    currency: "JPY",
    phonePrefix: "+81 90",
    first: ["Haruto", "Yui", "Sota", "Hina", "Yuto", "Aoi", "Riku", "Mei"],
    last: ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura"],
  },
  {
    language: "Finnish",
    currency: "BTC",
    phonePrefix: "+358 40",
    first: ["Eino", "Aino", "Leo", "Helmi", "Väinö", "Olivia", "Onni", "Ella"],
    last: ["Korhonen", "Virtanen", "Mäkinen", "Nieminen", "Mäkelä", "Hämäläinen", "Laine", "Heikkinen"],
  },
  {
    language: "English",
    currency: "ETH",
    phonePrefix: "+353 87",
    first: ["Conor", "Aoife", "Seán", "Niamh", "Cian", "Saoirse", "Darragh", "Ciara"],
    last: ["Murphy", "Kelly", "O'Brien", "Byrne", "Ryan", "Walsh", "O'Sullivan", "McCarthy"],
  },
];

/** Minor-unit scale per currency, and a unit size so amounts look natural in each currency. */
export const CURRENCY: Record<string, { scale: number; unit: number; crypto: boolean }> = {
  GBP: { scale: 2, unit: 1, crypto: false },
  USD: { scale: 2, unit: 1, crypto: false },
  EUR: { scale: 2, unit: 1, crypto: false },
  BRL: { scale: 2, unit: 5, crypto: false },
  SEK: { scale: 2, unit: 10, crypto: false },
  NOK: { scale: 2, unit: 10, crypto: false },
  CAD: { scale: 2, unit: 1.4, crypto: false },
  JPY: { scale: 0, unit: 150, crypto: false },
  BTC: { scale: 8, unit: 0.000011, crypto: true },
  ETH: { scale: 8, unit: 0.00033, crypto: true },
};
