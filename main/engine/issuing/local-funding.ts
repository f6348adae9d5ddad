/** On the local dev chain, a Partner's account is topped up to this when it runs low. */
export const LOCAL_FUNDING_WEI = 100n * 10n ** 18n;
export const LOCAL_LOW_WATER_WEI = 10n ** 18n;
