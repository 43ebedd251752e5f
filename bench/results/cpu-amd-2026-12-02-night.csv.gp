# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-02-night.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-02-night.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-02-night.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 21.353
64 20.302
EOD
$t0_1 << EOD
64 20.2056
EOD
$t0_2 << EOD
4 12.4408
64 28.7648
EOD
$t0_3 << EOD
64 30.5937
EOD
$t0_4 << EOD
4 0.183105
EOD
$t0_5 << EOD
4 0.37322
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
4 3.79686
64 5.50632
EOD
$t1_1 << EOD
64 5.13389
EOD
$t1_2 << EOD
4 6.36819
64 7.36519
EOD
$t1_3 << EOD
64 8.53579
EOD
$t1_4 << EOD
4 2.3168
EOD
$t1_5 << EOD
4 4.06353
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
4 6.89116
64 5.94826
EOD
$t2_1 << EOD
64 5.53906
EOD
$t2_2 << EOD
4 4.64812
64 6.61243
EOD
$t2_3 << EOD
64 10.1824
EOD
$t2_4 << EOD
4 0.0460971
EOD
$t2_5 << EOD
4 0.0842184
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
4 15.5843
64 15.0053
EOD
$t3_1 << EOD
64 17.4873
EOD
$t3_2 << EOD
4 22.4483
64 22.2641
EOD
$t3_3 << EOD
64 27.5695
EOD
$t3_4 << EOD
4 0.640916
EOD
$t3_5 << EOD
4 1.42572
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
"cpu/sum: tilejit width-1, 1 thread" 0.995249
"cpu/sum: tilejit width-1, 2 threads" 1.06358
"cpu/sum: tilejit cooperative, 1 thread" 0.00857515
"cpu/sum: tilejit cooperative, 2 threads" 0.0299997
"cpu/histogram: tilejit width-1, 1 thread" 0.932362
"cpu/histogram: tilejit width-1, 2 threads" 1.15894
"cpu/histogram: tilejit cooperative, 1 thread" 0.610189
"cpu/histogram: tilejit cooperative, 2 threads" 0.638097
"cpu/compact: tilejit width-1, 1 thread" 0.931207
"cpu/compact: tilejit width-1, 2 threads" 1.53989
"cpu/compact: tilejit cooperative, 1 thread" 0.0066893
"cpu/compact: tilejit cooperative, 2 threads" 0.0181188
"cpu/copy: tilejit width-1, 1 thread" 1.1654
"cpu/copy: tilejit width-1, 2 threads" 1.23829
"cpu/copy: tilejit cooperative, 1 thread" 0.0411259
"cpu/copy: tilejit cooperative, 2 threads" 0.0635113
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
"ptx/store_doubled_thread_indices" 17.1382
"ptx/multiply_elements" 13.7846
"ptx/row_products" 7.62929
"ptx/replace_rows" 13.1297
"ptx/histogram" 12.2711
"ptx/compact_values" 6.71693
"ptx/large" 1.46998
"ptx-first/store_doubled_thread_indices" 7.31706
"ptx-first/multiply_elements" 5.74244
"ptx-first/row_products" 5.34046
"ptx-first/replace_rows" 6.36758
"ptx-first/histogram" 6.801
"ptx-first/compact_values" 6.32025
"ptx-first/large" 1.49652
"disk/store_doubled_thread_indices" 1.97722
"disk/store_doubled_thread_indices (CPU)" 6.45584
"disk/multiply_elements" 2.32726
"disk/multiply_elements (CPU)" 7.70474
"disk/row_products" 2.5949
"disk/row_products (CPU)" 6.3699
"disk/replace_rows" 2.17677
"disk/replace_rows (CPU)" 8.55128
"disk/histogram" 2.53642
"disk/histogram (CPU)" 7.91596
"disk/compact_values" 2.7244
"disk/compact_values (CPU)" 9.94063
"disk/large" 6.96729
"disk/large (CPU)" 35.2091
"source/store_doubled_thread_indices" 18.8056
"source-first/store_doubled_thread_indices" 6.94055
"source/multiply_elements" 10.8695
"source-first/multiply_elements" 6.68582
"source/row_products" 7.65383
"source-first/row_products" 4.45904
"source/replace_rows" 8.02428
"source-first/replace_rows" 5.4056
"source/histogram" 9.23876
"source-first/histogram" 6.76652
"source/compact_values" 7.63546
"source-first/compact_values" 5.41734
"source/large" 1.66449
"source-first/large" 1.53588
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
