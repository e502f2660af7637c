import { charge as sdkCharge } from './payments';

export interface Order {
  id: string;
  total: number;
}

export async function charge(order: Order): Promise<string> {
  return sdkCharge(Math.round(order.total * 100));
}
