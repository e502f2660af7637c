export async function charge(amountInCents: number): Promise<string> {
  return `charged ${amountInCents}`;
}
