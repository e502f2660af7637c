/**
 * Words a prompt is full of that carry no topic: left out of the hook's search query and of the
 * topics' similarity scoring (tier 2).
 */

/** Words a prompt is full of that find nothing worth reading when searched alone. */
export const STOPWORDS = new Set(
  (
    'about above after again against all also and any are because been before being below between both but can could did does doing down during each ' +
    'few for from further had has have having her here hers him his how into its itself just let more most must not now off once only other our ours out ' +
    'over own please same she should some such than that the their theirs them then there these they this those through too under until very was were ' +
    'what when where which while who whom why will with would you your yours yourself make use using used want need like tell show give get way thing'
  ).split(' '),
);
