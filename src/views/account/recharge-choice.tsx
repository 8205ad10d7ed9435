import { Stack, Text, chakra } from '@chakra-ui/react';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import type { RechargePackage } from '../../api/contract/recharge';
import { formatMoney } from '../shared/amounts';

/** Money + gift as a 2-decimal string, in integer cents. */
export function sumMoney(a: string, b: string): string {
  const cents = (text: string) => {
    const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
    return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : 0;
  };
  const total = cents(a) + cents(b);
  return `${Math.floor(total / 100)}.${String(total % 100).padStart(2, '0')}`;
}

export const hasGift = (gift: string) => Number(gift) > 0;

/**
 * The packages on sale as radio buttons, each named by its package and described by its price
 * and what it credits (money, gift, total).
 */
export function PackageChoice(props: {
  packages: readonly RechargePackage[];
  picked: number | null;
  onPick: (id: number) => void;
  error: string | null;
  moneyName: string;
}) {
  const intl = useIntl();
  const id = useId();
  const errorId = `${id}-error`;
  const offer = (p: RechargePackage) =>
    intl.formatMessage(
      { id: hasGift(p.gift_money) ? 'buy.optionTextGift' : 'buy.optionText' },
      {
        price: formatMoney(p.price),
        money: formatMoney(p.money),
        gift: formatMoney(p.gift_money),
        total: sumMoney(p.money, p.gift_money),
        moneyName: props.moneyName,
      },
    );
  return (
    <chakra.fieldset
      aria-invalid={props.error ? true : undefined}
      aria-describedby={props.error ? errorId : undefined}
    >
      <chakra.legend fontWeight="medium" marginBottom="2">
        {intl.formatMessage({ id: 'buy.packages' })}
      </chakra.legend>
      <Stack gap="2">
        {props.packages.map((p) => {
          const inputId = `${id}-${p.id}`;
          return (
            <chakra.label
              key={p.id}
              htmlFor={inputId}
              display="flex"
              gap="3"
              alignItems="flex-start"
              borderWidth="1px"
              borderRadius="md"
              padding="3"
              cursor="pointer"
              borderColor={props.picked === p.id ? 'colorPalette.solid' : 'border'}
              _hover={{ bg: 'bg.muted' }}
            >
              <chakra.input
                id={inputId}
                type="radio"
                name={`${id}-package`}
                value={p.id}
                checked={props.picked === p.id}
                onChange={() => props.onPick(p.id)}
                aria-labelledby={`${inputId}-name`}
                aria-describedby={`${inputId}-offer`}
                marginTop="1"
              />
              <Stack gap="0.5">
                <Text id={`${inputId}-name`} fontWeight="medium">
                  {p.name}
                </Text>
                <Text id={`${inputId}-offer`} fontSize="sm">
                  {offer(p)}
                </Text>
                {p.description && (
                  <Text fontSize="sm" color="fg.muted">
                    {p.description}
                  </Text>
                )}
              </Stack>
            </chakra.label>
          );
        })}
      </Stack>
      {props.error && (
        <Text id={errorId} color="fg.error" fontSize="sm" marginTop="2">
          {props.error}
        </Text>
      )}
    </chakra.fieldset>
  );
}
