# Charts of the tilejit-bench run in cpu-amd-2026-12-02-after.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh cpu-amd-2026-12-02-after.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" cpu-amd-2026-12-02-after.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 56.0275
64 37.6913
EOD
$t0_1 << EOD
64 37.2516
EOD
$t0_2 << EOD
4 37.4821
64 43.9936
EOD
$t0_3 << EOD
64 44.941
EOD
$t0_4 << EOD
4 0.190741
EOD
$t0_5 << EOD
4 0.344075
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
4 6.71518
64 6.31708
EOD
$t1_1 << EOD
64 5.90385
EOD
$t1_2 << EOD
4 10.1637
64 10.9065
EOD
$t1_3 << EOD
64 10.9394
EOD
$t1_4 << EOD
4 3.36627
EOD
$t1_5 << EOD
4 6.29092
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
4 8.4199
64 8.37931
EOD
$t2_1 << EOD
64 11.2883
EOD
$t2_2 << EOD
4 7.06036
64 9.68342
EOD
$t2_3 << EOD
64 19.0541
EOD
$t2_4 << EOD
4 0.0436244
EOD
$t2_5 << EOD
4 0.0723961
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
4 56.3007
64 23.1653
EOD
$t3_1 << EOD
64 28.0194
EOD
$t3_2 << EOD
4 38.6299
64 31.5189
EOD
$t3_3 << EOD
64 34.8459
EOD
$t3_4 << EOD
4 0.946014
EOD
$t3_5 << EOD
4 1.6387
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 0.988334
"cpu/sum: tilejit width-1, 2 threads" 1.02153
"cpu/sum: tilejit cooperative, 1 thread" 0.00340442
"cpu/sum: tilejit cooperative, 2 threads" 0.00917972
"cpu/histogram: tilejit width-1, 1 thread" 0.934586
"cpu/histogram: tilejit width-1, 2 threads" 1.00302
"cpu/histogram: tilejit cooperative, 1 thread" 0.501292
"cpu/histogram: tilejit cooperative, 2 threads" 0.618959
"cpu/compact: tilejit width-1, 1 thread" 1.34716
"cpu/compact: tilejit width-1, 2 threads" 1.96771
"cpu/compact: tilejit cooperative, 1 thread" 0.00518111
"cpu/compact: tilejit cooperative, 2 threads" 0.0102539
"cpu/copy: tilejit width-1, 1 thread" 1.20954
"cpu/copy: tilejit width-1, 2 threads" 1.10555
"cpu/copy: tilejit cooperative, 1 thread" 0.0168029
"cpu/copy: tilejit cooperative, 2 threads" 0.0424204
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 10.4072
"ptx/multiply_elements" 9.22745
"ptx/row_products" 6.63137
"ptx/replace_rows" 8.32566
"ptx/histogram" 8.99906
"ptx/compact_values" 6.14397
"ptx/large" 1.63195
"ptx-first/store_doubled_thread_indices" 7.63436
"ptx-first/multiply_elements" 6.3414
"ptx-first/row_products" 5.4706
"ptx-first/replace_rows" 6.35558
"ptx-first/histogram" 6.87952
"ptx-first/compact_values" 4.88614
"ptx-first/large" 1.55118
"disk/store_doubled_thread_indices" 2.10678
"disk/store_doubled_thread_indices (CPU)" 8.73944
"disk/multiply_elements" 2.27112
"disk/multiply_elements (CPU)" 8.48438
"disk/row_products" 3.00061
"disk/row_products (CPU)" 7.50304
"disk/replace_rows" 2.65075
"disk/replace_rows (CPU)" 9.54134
"disk/histogram" 2.34727
"disk/histogram (CPU)" 7.8532
"disk/compact_values" 3.06986
"disk/compact_values (CPU)" 8.80787
"disk/large" 5.67682
"disk/large (CPU)" 31.5417
"source/store_doubled_thread_indices" 18.4568
"source-first/store_doubled_thread_indices" 6.41941
"source/multiply_elements" 13.2991
"source-first/multiply_elements" 6.56336
"source/row_products" 8.7066
"source-first/row_products" 5.32742
"source/replace_rows" 11.7728
"source-first/replace_rows" 6.60028
"source/histogram" 12.77
"source-first/histogram" 6.82654
"source/compact_values" 8.30012
"source-first/compact_values" 5.31643
"source/large" 1.62336
"source-first/large" 1.55144
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
