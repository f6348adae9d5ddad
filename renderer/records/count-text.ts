/** Over this many records, a bulk change asks once more, naming the count. */
export const CONFIRM_OVER = 100;
