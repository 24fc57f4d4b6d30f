/** A number as a judge writes it: "3,5" is 3.5 (German judges write a decimal comma). */
export const decimal = (digits: string): number => Number(digits.replace(",", "."));
