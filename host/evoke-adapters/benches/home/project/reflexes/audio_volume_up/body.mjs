export default () => "done";
