import type { ReactNode } from 'react';
import { Listing } from '../components/Listing/Listing';
import type { ListingProps } from '../protocol';

export default function Subsubcategory(props: ListingProps): ReactNode {
  return <Listing {...props} childrenLabel="Topics" />;
}
